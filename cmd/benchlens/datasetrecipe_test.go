package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// benchmarkBlocks are the benchmark commands of a rerun script, each with its header
// comment and notes, by the tool word that starts it.
func benchmarkBlocks(script string) []string {
	var out []string
	for _, b := range strings.Split(script, "\n\n") {
		if strings.Contains(b, "# benchmark ") {
			out = append(out, b)
		}
	}
	return out
}

// A run whose requests were read from a dataset is rerun on that dataset, in its tool's words
// (vLLM and SGLang --dataset-name / --dataset-path, the dataset's own output-length option
// where the client fixed it; AIPerf --input-file and its type), never with random-length
// flags that do not apply to it. Imported as labs keep them: testdata/dataset-runs (README
// there), the lab layout of five-shapes/sharegpt, and AIPerf's real input-file run.
func TestReproduceDatasetRuns(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	for _, args := range [][]string{
		{filepath.Join("testdata", "dataset-runs")},
		{"--label", "vllm-sharegpt", filepath.Join("testdata", "labruns", "five-shapes", "sharegpt")},
		{"--label", "aiperf-file", filepath.Join(fixtures, "06_profile_export_aiperf.json")},
	} {
		if out, errOut, code := bl(t, append([]string{"--db", db, "import"}, args...)...); code != 0 {
			t.Fatalf("import %v: exit %d %s%s", args, code, out, errOut)
		}
	}
	// Each pair's benchmark commands, baseline's first: what each must say.
	cases := []struct {
		base, cand string
		want       [2][]string
	}{
		{"sgl-sharegpt", "sgl-sharegpt-256", [2][]string{
			{"python -m sglang.bench_serving", "--dataset-name sharegpt", "--dataset-path '<dataset_path: not recorded>'"},
			{"python -m sglang.bench_serving", "--dataset-name sharegpt", "--dataset-path '<dataset_path: not recorded>'", "--sharegpt-output-len 256"},
		}},
		{"vllm-sharegpt", "vllm-custom", [2][]string{
			{"vllm bench serve", "--dataset-name sharegpt", "--dataset-path '<dataset_path: not recorded>'", "--num-prompts 1000"},
			{"vllm bench serve", "--dataset-name custom", "--dataset-path /data/lab/prompts-2k.jsonl", "--custom-output-len 512", "--seed 7", "--num-prompts 500"},
		}},
		{"aiperf-file", "vllm-custom", [2][]string{
			{"aiperf profile", "--input-file /benchmarks/sharegpt-cache/inputs-qwen3-4b.json", "--custom-dataset-type inputs_json", "--benchmark-duration 300"},
			{"vllm bench serve", "--dataset-name custom"},
		}},
	}
	for _, c := range cases {
		script, errOut, code := bl(t, "--db", db, "reproduce", "--baseline", c.base, "--candidate", c.cand)
		if code != 0 {
			t.Fatalf("reproduce %s %s: exit %d %s", c.base, c.cand, code, errOut)
		}
		blocks := benchmarkBlocks(script)
		if len(blocks) != 2 {
			t.Fatalf("%s / %s: %d benchmark commands, want 2:\n%s", c.base, c.cand, len(blocks), script)
		}
		for i, b := range blocks {
			for _, w := range c.want[i] {
				if !strings.Contains(b, w) {
					t.Errorf("%s: lacks %q:\n%s", []string{c.base, c.cand}[i], w, b)
				}
			}
			bad := []string{"--random-input-len", "--random-output-len", "--random-range-ratio", "--synthetic-input-tokens", "--output-tokens-mean", "do not apply"}
			if !strings.Contains(strings.Join(c.want[i], " "), "-output-len") {
				bad = append(bad, "--sharegpt-output-len") // the dataset's completions set the outputs
			}
			for _, x := range bad {
				if strings.Contains(b, x) {
					t.Errorf("%s: a dataset run's command has %q:\n%s", []string{c.base, c.cand}[i], x, b)
				}
			}
		}
		if sh, err := exec.LookPath("sh"); err == nil {
			if out, err := exec.Command(sh, "-n", "-c", script).CombinedOutput(); err != nil {
				t.Errorf("sh -n: %v %s", err, out)
			}
		}
	}
}
