package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// importBeside imports a bundle holding log beside the smallest vLLM result, as a user would,
// and returns what show and runs (and runs --json) say of its run.
func importBeside(t *testing.T, log string) (show, runs string, row map[string]any) {
	t.Helper()
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	bundle := filepath.Join(t.TempDir(), "bundle")
	writeFile(t, filepath.Join(bundle, "run", "server.log"), data)
	writeFile(t, filepath.Join(bundle, "run", "result.json"), []byte(besideResult))
	db := filepath.Join(t.TempDir(), "lib.db")
	mustRun(t, "--db", db, "import", bundle)
	var rows []map[string]any
	if err := json.Unmarshal([]byte(mustRun(t, "--db", db, "runs", "--json")), &rows); err != nil || len(rows) != 1 {
		t.Fatalf("runs --json: %d rows, %v", len(rows), err)
	}
	return mustRun(t, "--db", db, "show", "1"), mustRun(t, "--db", db, "runs"), rows[0]
}

func wantLines(t *testing.T, out string, want, not []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("missing %q in:\n%s", w, out)
		}
	}
	for _, n := range not {
		if strings.Contains(out, n) {
			t.Errorf("%q should not be in:\n%s", n, out)
		}
	}
}

// Bug: a log pasted from Markdown whose ≤0.7 file field became a link with the logger's "]"
// left behind ("[cuda.py:227](http://cuda.py:227/)] Using XFormers backend.") lost its prefix,
// so the backend and the guard before it were never read.
func TestMarkdownPastedLogKeepsItsBackendLines(t *testing.T) {
	show, runs, _ := importBeside(t, "../../importers/serverlog/testdata/vllm-0.7.2-markdown-stray-bracket-t4.log")
	wantLines(t, show, []string{
		"target FLASH_ATTN (server log: default), resolved XFORMERS: fallback",
		"fallback, line 4: INFO 02-13 15:54:31 [cuda.py:179] Cannot use FlashAttention-2 backend for Volta and Turing GPUs.",
	}, nil)
	wantLines(t, runs, []string{"XFORMERS (asked FLASH_ATTN)"}, nil)
}

// Bug: a real vllm-ascend start-up of vLLM 0.27.1 serving a DeepSeek V4 (DSA) model was shown
// as "vllm-ascend 0.27.1" (the version is vLLM's), its default target as the dense
// AscendAttentionBackend, that inferred class in runs as if the log had resolved it, and
// vllm-ascend's reset of a GPU-only setting as an attention fallback.
func TestVLLMAscendStartUpSaysWhatItKnows(t *testing.T) {
	show, runs, row := importBeside(t, "../../testdata/fixtures/turn3/npu_13_vllm-ascend_0.27.1_eager_serve.EXCERPT.log")
	wantLines(t, show, []string{
		"vLLM 0.27.1 + vllm-ascend (version not printed) npu",
		"target AscendDSABackend (server log: default), resolved not in the log (AscendDSABackend inferred): unknown",
		"override, line 36: (APIServer pid=567) WARNING 09-23 23:12:37 [platform.py:651] GPU-specific parameter is not supported on Ascend. parameter=disable_cascade_attn",
	}, []string{"AscendAttentionBackend", "fallback, line 36", "vllm-ascend 0.27.1"})
	wantLines(t, runs, []string{"- (asked AscendDSABackend)"}, []string{"AscendAttentionBackend"})
	if row["resolved_backend"] != nil || row["target_backend"] != "AscendDSABackend" {
		t.Errorf("runs --json: resolved %v, target %v; want null and AscendDSABackend", row["resolved_backend"], row["target_backend"])
	}
}
