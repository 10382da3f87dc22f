package model

import "testing"

// A server log's engine version against a dump's: the same release spelled two ways is no
// disagreement; another release is, with both files.
func TestFilesDisagreeLogAndDump(t *testing.T) {
	for _, c := range []struct {
		engine, logVersion, fact, dump string
		want                           string
	}{
		{"vllm", "0.12.0", FactVLLM, "0.11.2", `engine_version: the server log says "vllm 0.12.0", env.txt line 9 says "vllm 0.11.2"`},
		{"vllm", "0.23.1rc1.dev998+g88e5e2c57", FactVLLM, "0.23.1rc1.dev998+g88e5e2c57 (git sha: 88e5e2c57)", ""},
		{"vllm", "v0.11", FactVLLM, "0.11.2", ""},
		{"vllm", "0.1", FactVLLM, "0.12.0", `engine_version: the server log says "vllm 0.1", env.txt line 9 says "vllm 0.12.0"`},
		{"vllm-ascend", "0.9.1", FactVLLM, "0.9.1", ""},
		{"sglang", "0.4.9", FactSGLang, "0.5.13.post1", `engine_version: the server log says "sglang 0.4.9", env.txt line 9 says "sglang 0.5.13.post1"`},
		{"sglang", "0.4.9", FactVLLM, "0.9.0", ""}, // vLLM installed beside SGLang: another engine
	} {
		var fp Fingerprint
		fp.Add(c.fact, Fact{Value: c.dump, File: "env.txt", Line: 9})
		got := fp.FilesDisagree([]*LogEvidence{{Engine: c.engine, Version: c.logVersion}})
		if (c.want == "" && len(got) > 0) || (c.want != "" && (len(got) != 1 || got[0] != c.want)) {
			t.Errorf("%s %s vs %s: %q, want %q", c.engine, c.logVersion, c.dump, got, c.want)
		}
	}
}
