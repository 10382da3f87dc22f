package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// Two MLPerf LoadGen Server runs of llama2-70b-99, the real H200 submission (summary and
// detail log in their submission folders, with the system JSON) and the MI300X summary
// written from the spec (importers/result/testdata/mlperf/v4.1-mi300x-server), compare as two
// arms whose load point is matched on LoadGen's target QPS (101 in both).
func TestMLPerfRunsCompareOnTargetQPS(t *testing.T) {
	h200 := filepath.Join(t.TempDir(), "h200", "closed", "NVIDIA")
	run := filepath.Join(h200, "results", "H200-SXM-141GBx8_TRT", "llama2-70b-99", "Server", "performance", "run_1")
	for src, dst := range map[string]string{
		"../../testdata/fixtures/turn3/gpu_05_mlperf41_nvidia_h200x8_llama2-70b-99_Server_mlperf_log_summary.txt": filepath.Join(run, "mlperf_log_summary.txt"),
		"../../testdata/fixtures/turn3/gpu_06_mlperf41_nvidia_h200x8_llama2-70b-99_Server_mlperf_log_detail.txt":  filepath.Join(run, "mlperf_log_detail.txt"),
		"testdata/turn3/H200-SXM-141GBx8_TRT.json":                                                                filepath.Join(h200, "systems", "H200-SXM-141GBx8_TRT.json"),
	} {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, dst, data)
	}
	db := filepath.Join(t.TempDir(), "lib.db")
	mustRun(t, "--db", db, "import", "--label", "h200", filepath.Dir(filepath.Dir(h200)))
	mustRun(t, "--db", db, "import", "--label", "mi300x", "../../importers/result/testdata/mlperf/v4.1-mi300x-server")
	var rec struct {
		Arms map[string]struct {
			Label string  `json:"label"`
			Runs  []int64 `json:"runs"`
		} `json:"arms"`
		Workload map[string]struct {
			Baseline  string `json:"baseline"`
			Candidate string `json:"candidate"`
			State     string `json:"state"`
		} `json:"workload"`
		Perf json.RawMessage `json:"perf"`
	}
	out := mustRun(t, "--db", db, "compare", "--baseline", "h200", "--candidate", "mi300x", "--format", "json")
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatal(err)
	}
	if b, c := rec.Arms["baseline"], rec.Arms["candidate"]; b.Label != "h200" || c.Label != "mi300x" || len(b.Runs) != 1 || len(c.Runs) != 1 {
		t.Fatalf("arms %+v, want h200 and mi300x of one run each", rec.Arms)
	}
	for key, want := range map[string]string{"request_rate": "101", "model_name": "llama2-70b-99"} {
		if w := rec.Workload[key]; w.Baseline != want || w.Candidate != want || w.State != "same" {
			t.Errorf("workload %s = %+v, want %s on both sides, same", key, w, want)
		}
	}
	if len(rec.Perf) < 10 {
		t.Errorf("no stages compared: %s", rec.Perf)
	}
}
