package importers

import (
	"strconv"
	"strings"
	"testing"

	"benchlens/model"
)

// sweepResult is a summary-only `vllm bench serve` result (≈0.10) of n prompts at concurrency c.
func sweepResult(n, c int) []byte {
	return []byte(strings.NewReplacer("N", strconv.Itoa(n), "C", strconv.Itoa(c)).Replace(`{"date": "20250601-120000", "endpoint_type": "vllm", "backend": "vllm", "label": null,
"model_id": "Qwen/Qwen2.5-7B-Instruct", "tokenizer_id": "Qwen/Qwen2.5-7B-Instruct", "num_prompts": N, "request_rate": "inf",
"burstiness": 1.0, "max_concurrency": C, "duration": 30.0, "completed": N, "failed": 0, "total_input_tokens": 1000,
"total_output_tokens": 1000, "request_throughput": 3.0, "mean_ttft_ms": 100.0, "median_ttft_ms": 95.0}`))
}

// Warm-up runs are found by their name, a phase list beside them, or bundle.yaml; the nearest
// statement wins and the reason is kept.
func TestWarmupRuns(t *testing.T) {
	tests := []struct {
		name  string
		files map[string][]byte
		want  map[string]string // result file → why it is a warm-up ("" measured)
	}{
		{"named warmup", map[string][]byte{
			"lab/warmup_c32.json": sweepResult(50, 32), "lab/result_c32.json": sweepResult(400, 32),
		}, map[string]string{"lab/warmup_c32.json": "its name says warm-up: warmup_c32.json", "lab/result_c32.json": ""}},
		{"an artifact folder named warm-up", map[string][]byte{
			"lab/Warm-Up_c8/result.json": sweepResult(50, 8), "lab/c8/result.json": sweepResult(400, 8),
		}, map[string]string{"lab/Warm-Up_c8/result.json": "its name says warm-up: Warm-Up_c8", "lab/c8/result.json": ""}},
		{"a study named warmup is no warm-up run", map[string][]byte{
			"lab/warmup-study/c8/result.json": sweepResult(50, 8), "lab/warmup-study/c16/result.json": sweepResult(400, 16),
		}, map[string]string{"lab/warmup-study/c8/result.json": "", "lab/warmup-study/c16/result.json": ""}},
		{"nothing measured beside it", map[string][]byte{"lab/warmup_c8.json": sweepResult(50, 8)},
			map[string]string{"lab/warmup_c8.json": ""}},
		{"no word inside another", map[string][]byte{"lab/nowarmupx.json": sweepResult(50, 8)},
			map[string]string{"lab/nowarmupx.json": ""}},
		{"windows.jsonl with the lab's absolute paths", map[string][]byte{
			"lab/c32/first.json": sweepResult(50, 32), "lab/c32/second.json": sweepResult(400, 32),
			"lab/windows.jsonl": []byte(`{"window": 0, "phase": "warmup", "result_file": "/data/run7/c32/first.json", "num_prompts": 50}
{"window": 1, "phase": "measure", "result_file": "/data/run7/c32/second.json", "num_prompts": 400}
`),
		}, map[string]string{"lab/c32/first.json": `lab/windows.jsonl, record 1, names it warm-up ("/data/run7/c32/first.json")`, "lab/c32/second.json": ""}},
		{"a phase list overrules the name", map[string][]byte{
			"lab/warmup_done.json": sweepResult(400, 8),
			"lab/phases.csv":       []byte("file,stage\nwarmup_done.json,measured\n"),
		}, map[string]string{"lab/warmup_done.json": ""}},
		{"the record's flag, an artifact folder", map[string][]byte{
			"lab/art1/profile.json": sweepResult(50, 8), "lab/art2/profile.json": sweepResult(400, 8),
			"lab/runs.json": []byte(`[{"artifact_dir": "art1", "warmup": true}, {"artifact_dir": "art2", "warmup": false}]`),
		}, map[string]string{"lab/art1/profile.json": `lab/runs.json, record 1, names it warm-up ("art1")`, "lab/art2/profile.json": ""}},
		{"bundle.yaml phases", map[string][]byte{
			"lab/a.json": sweepResult(50, 8), "lab/b.json": sweepResult(400, 8),
			"lab/bundle.yaml": []byte("phases: {warmup: [a.json], measured: b.json}\n"),
		}, map[string]string{"lab/a.json": `lab/bundle.yaml names it warm-up ("a.json")`, "lab/b.json": ""}},
		{"bundle.yaml phase", map[string][]byte{
			"lab/pre/a.json": sweepResult(50, 8), "lab/pre/bundle.yaml": []byte("phase: warmup\n"),
			"lab/warmup.json": sweepResult(50, 8), "lab/bundle.yaml": []byte("phase: measured\n"),
		}, map[string]string{"lab/pre/a.json": "bundle.yaml: phase: warmup", "lab/warmup.json": ""}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var entries []Entry
			for name, data := range tc.files {
				entries = append(entries, heapEntry(name, data))
			}
			items, errs := Assemble(entries)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			if len(items) != len(tc.want) {
				t.Fatalf("%d runs, want %d", len(items), len(tc.want))
			}
			for _, it := range items {
				want, ok := tc.want[it.Result.Name]
				if !ok {
					t.Fatalf("unexpected run from %s", it.Result.Name)
				}
				if it.Run.PhaseWhy != want || it.Run.IsWarmup() != (want != "") {
					t.Errorf("%s: phase %q (%q), want warm-up %v (%q)", it.Result.Name, it.Run.Phase, it.Run.PhaseWhy, want != "", want)
				}
			}
			for _, it := range items {
				for _, a := range it.Attachments {
					if a.Kind == model.KindOther {
						t.Errorf("%s: attached unread", a.Name)
					}
				}
			}
		})
	}
}

// A bundle.yaml's phase keys are checked like its other keys.
func TestPhaseKeysChecked(t *testing.T) {
	for _, bad := range []string{"phase: later\n", "phase: [warmup]\n", "phases: [a.json]\n", "phases: {first: [a.json]}\n", "phases: {warmup: [1]}\n"} {
		if _, err := ParseManifest("lab/bundle.yaml", []byte(bad)); err == nil || !strings.Contains(err.Error(), "lab/bundle.yaml") {
			t.Errorf("%q: error %v", bad, err)
		}
	}
	if _, err := ParseManifest("lab/bundle.yaml", []byte("phase: warm-up\nphases: {warmup: a.json, measured: [b.json]}\n")); err != nil {
		t.Error(err)
	}
}

// A phase list never panics, and what it reads always has a file and a phase.
func FuzzPhaseList(f *testing.F) {
	f.Add([]byte(`{"window": 0, "phase": "warmup", "result_file": "/a/c32_0.json"}` + "\n" + `{"phase": "measure", "file": "b.json"}`))
	f.Add([]byte(`[{"artifact_dir": "art1", "warmup": true}]`))
	f.Add([]byte("file,stage\nwarmup_done.json,measured\n"))
	f.Add([]byte(`{"warmup": ["a.json"], "measured": "b.json"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		pl, ok := readPhaseList("lab/windows.jsonl", data)
		for _, e := range pl.entries {
			if !ok || e.File == "" || (e.Phase != model.PhaseWarmup && e.Phase != model.PhaseMeasured) {
				t.Fatalf("entry %+v (ok %v)", e, ok)
			}
			phaseMatch(e, "c32/x.json")
		}
	})
}
