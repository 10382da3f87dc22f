package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// The torch_npu files of fixtures/turn3 (01-07 and 09) are one Level1 capture: put back in
// their folders (rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/…, profiler_info_0.json above) beside
// a result, they attach as one trace with one set of figures, which agree with each file's
// own (SOURCES.md: Computing 8 873.8 µs, Free 25 744.1 µs, Stage 136 581 µs, 191 launches).
func TestTurn3TorchNPUCaptureIsOneTrace(t *testing.T) {
	bundle := filepath.Join(t.TempDir(), "run")
	out := filepath.Join(bundle, "rank0_ascend_pt", "ASCEND_PROFILER_OUTPUT")
	for fixture, dst := range map[string]string{
		"npu_01_torchnpu_L1_trace_view.json":      filepath.Join(out, "trace_view.json"),
		"npu_02_torchnpu_L1_kernel_details.csv":   filepath.Join(out, "kernel_details.csv"),
		"npu_03_torchnpu_L1_operator_details.csv": filepath.Join(out, "operator_details.csv"),
		"npu_04_torchnpu_L1_op_statistic.csv":     filepath.Join(out, "op_statistic.csv"),
		"npu_05_torchnpu_L1_api_statistic.csv":    filepath.Join(out, "api_statistic.csv"),
		"npu_06_torchnpu_L1_step_trace_time.csv":  filepath.Join(out, "step_trace_time.csv"),
		"npu_07_torchnpu_L1_communication.json":   filepath.Join(out, "communication.json"),
		"npu_09_torchnpu_L1_profiler_info_0.json": filepath.Join(bundle, "rank0_ascend_pt", "profiler_info_0.json"),
	} {
		data, err := os.ReadFile(filepath.Join("../../testdata/fixtures/turn3", fixture))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, dst, data)
	}
	writeFile(t, filepath.Join(bundle, "result.json"), []byte(besideResult))
	db := filepath.Join(t.TempDir(), "lib.db")
	mustRun(t, "--db", db, "import", bundle)
	var show any
	if err := json.Unmarshal([]byte(mustRun(t, "--db", db, "show", "1", "--json")), &show); err != nil {
		t.Fatal(err)
	}
	if n, _ := jsonAt(show, "evidence.#"); n != 1 {
		t.Fatalf("%v pieces of evidence, want the capture's one trace", n)
	}
	for path, want := range map[string]float64{
		"evidence.0.trace.step_time.columns_us.Computing": 8873.756,
		"evidence.0.trace.step_time.columns_us.Free":      25744.05,
		"evidence.0.trace.step_time.columns_us.Stage":     136581,
		"evidence.0.trace.launches.count":                 191,
		"evidence.0.trace.files.#":                        8,
	} {
		got, ok := jsonAt(show, path)
		if !ok || got < want-0.01 || got > want+0.01 {
			t.Errorf("%s = %v (%v), the files say %v", path, got, ok, want)
		}
	}
}
