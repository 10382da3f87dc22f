package library

import (
	"strings"
	"testing"

	"benchlens/model"
)

// TestNaNToolStatisticsDroppedSilently: a tool statistic written as NaN (vLLM writes numpy's nan
// for a statistic of no samples) vanished from the run without a word; a warning names it.
func TestNaNToolStatisticsDroppedSilently(t *testing.T) {
	result := `{"date": "20250101-000001", "backend": "vllm", "model_id": "m", "num_prompts": 2, "completed": 2,
		"mean_ttft_ms": 10.0, "std_ttft_ms": NaN, "p99_itl_ms": NaN}`
	st := openStore(t)
	rep := Import(st, []string{writeTree(t, map[string]string{"r.json": result})}, Options{})
	if len(rep.Errors) > 0 || len(rep.Added) != 1 {
		t.Fatalf("import: added %d, errors %v", len(rep.Added), rep.Errors)
	}
	run, err := st.Run(rep.Added[0])
	if err != nil {
		t.Fatal(err)
	}
	want := "the tool wrote NaN for itl p99, ttft std: left unknown"
	if !strings.Contains(strings.Join(model.WarningsEnglish(run.Warnings), "\n"), want) {
		t.Errorf("warnings %q, want %q", run.Warnings, want)
	}
	if run.Summary["ttft"]["std"].Known() {
		t.Errorf("NaN read as a value: %v", run.Summary["ttft"])
	}
}
