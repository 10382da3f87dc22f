package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// show RUN prints what the attached files say: a server that never came up, with its line, and
// the demo trace's overhead, operator families and attention kernels, the utilisation shape.
func TestShowEvidence(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bundle", "run-1")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	logData, err := os.ReadFile("../../library/testdata/reallogs/enginecore-failed.log")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "server.log"), logData, 0o644)
	os.WriteFile(filepath.Join(dir, "result.json"), []byte(`{"date": "20250506-091500", "backend": "vllm", "model_id": "Qwen/Qwen2.5-32B-Instruct", "num_prompts": 2, "completed": 0, "mean_ttft_ms": 0.0}`), 0o644)
	db := filepath.Join(t.TempDir(), "lib.db")
	if _, _, code := bl(t, "--db", db, "import", filepath.Dir(dir)); code != 0 {
		t.Fatal("import failed")
	}
	out, _, _ := bl(t, "--db", db, "show", "1")
	for _, want := range []string{"target FLASH_ATTN (server log: default), resolved FLASH_ATTN: failed",
		"line 5: INFO 05-06 09:12:18 [cuda.py:221] Using Flash Attention backend on V1 engine.",
		"target backend      FLASH_ATTN (server log: default)", // no bundle.yaml: the log's default, said so
		"server failed, line 6: ERROR 05-06 09:13:10 [core.py:396] EngineCore failed to start."} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q:\n%s", want, out)
		}
	}

	if _, _, code := bl(t, "--db", db, "import", "../../demo/samples/offset-ops/run-1"); code != 0 {
		t.Fatal("demo import failed")
	}
	out, _, _ = bl(t, "--db", db, "show", "2")
	for _, want := range []string{"profiler trace (kineto), run-1/trace.json: 4 steps, 112 kernels, device busy 96% of 23494 us",
		"per step: 28.0 launches, 0.0 graph launches, 7.0 copies, 3.0 syncs", "device time 11318 us per step",
		"attention       10.7%  flashinfer::BatchPrefillWithPagedKVCacheKernel",
		"utilisation (nvidia-smi query), run-1/gpu.csv: 1 device\n  0 NVIDIA H100 80GB HBM3: intermittent, median busy 52%, 7% of 14 samples idle (< 10%), 1 idle gap (1 of >= 0.5 s: 8.5 a minute), over 6.53 s",
		"attention kernels: FLASHINFER (flashinfer::BatchPrefillWithPagedKVCacheKernel)"} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q:\n%s", want, out)
		}
	}
}
