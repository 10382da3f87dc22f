package library

import (
	"strings"
	"testing"

	"benchlens/analysis/compare"
	"benchlens/model"
)

// A negative latency and a Latin-1 file import (the data is kept as the file says) but each
// run carries a stored warning, and the comparison's checklist flags the measurement.
func TestImplausibleValuesAreFlagged(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"base/result.json": `{"date": "20250101-000000", "backend": "vllm", "model_id": "m", "num_prompts": 2, "completed": 2,
			"mean_ttft_ms": -10.2, "ttfts": [-0.06546, 0.0201], "itls": [[0.01], [0.011]], "output_lens": [2, 2], "input_lens": [8, 8]}`,
		"base/bundle.yaml": "label: base\nrole: baseline\n",
		"cand/result.json": "{\"date\": \"20250101-000100\", \"backend\": \"vllm\", \"model_id\": \"mod\xe8le\", \"num_prompts\": 2, \"completed\": 2, \"mean_ttft_ms\": 10.0}",
		"cand/bundle.yaml": "label: cand\nrole: candidate\n",
	})
	st := openStore(t)
	rep := Import(st, []string{dir}, Options{})
	if len(rep.Added) != 2 || len(rep.Errors) != 0 {
		t.Fatalf("import: %+v", rep)
	}
	want := map[string][]string{
		"base": {"implausible values: 1 requests with a negative TTFT (lowest -65.46 ms)", "implausible values: the tool's ttft mean is -10.20 ms"},
		"cand": {"not valid UTF-8: bundle/cand/result.json from byte", "Latin-1"},
	}
	for _, id := range rep.Added {
		run, err := st.Run(id)
		if err != nil {
			t.Fatal(err)
		}
		all := strings.Join(model.WarningsEnglish(run.Warnings), "\n")
		for _, w := range want[run.Label] {
			if !strings.Contains(all, w) {
				t.Errorf("%s: warnings %q lack %q", run.Label, run.Warnings, w)
			}
		}
	}
	rec, err := Compare(st, "base", "cand", compare.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rec.Checklist() {
		if c.Name == "measurement" && (c.State == model.CheckOK || !strings.Contains(c.Reason, "negative TTFT") && !strings.Contains(c.Reason, "UTF-8")) {
			t.Errorf("measurement check: %+v", c)
		}
	}
	if len(rec.DataQuality) != 3 {
		t.Errorf("data quality %q", rec.DataQuality)
	}
}

// Bug: a tool's statistic of Infinity (Python's json writes it for a division by zero) or
// 1e300 ms was stored without a word and printed as a 300-digit number; it is now flagged.
func TestInfiniteOrHugeToolStatisticFlagged(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"r/result.json": `{"date": "20250101-000000", "backend": "vllm", "model_id": "m", "num_prompts": 2, "completed": 2,
			"mean_ttft_ms": 10.5, "std_ttft_ms": Infinity, "p99_itl_ms": 1e300, "median_tpot_ms": 86400001}`,
	})
	st := openStore(t)
	rep := Import(st, []string{dir}, Options{})
	if len(rep.Added) != 1 {
		t.Fatalf("import: %+v", rep)
	}
	run, err := st.Run(rep.Added[0])
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(model.WarningsEnglish(run.Warnings), "\n")
	for _, w := range []string{"the tool's ttft std is +Inf ms", "the tool's itl p99 is 1e+300 ms", "the tool's tpot median is 86400001.00 ms"} {
		if !strings.Contains(all, w) {
			t.Errorf("warnings %q lack %q", run.Warnings, w)
		}
	}
	if strings.Contains(all, "ttft mean") {
		t.Errorf("a plausible mean is flagged: %q", run.Warnings)
	}
}

// Bug: vLLM writes zeros for the latencies of a run in which every request failed; they were
// kept as the tool's statistics, so such a candidate read as 100% faster. They are left out
// with a warning; the counts stay.
func TestAllFailedRunHasNoZeroLatencies(t *testing.T) {
	st := openStore(t)
	rep := Import(st, []string{fixtures + "/08_bench_serve_all_requests_failed_v0.25.1.json"}, Options{})
	if len(rep.Added) != 1 {
		t.Fatalf("import: %+v", rep)
	}
	run, err := st.Run(rep.Added[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Summary) != 0 || run.Completed != 0 || run.Failed != 8 {
		t.Errorf("summary %v, completed %v, failed %v", run.Summary, run.Completed, run.Failed)
	}
	if !strings.Contains(strings.Join(model.WarningsEnglish(run.Warnings), "\n"), "no request succeeded") {
		t.Errorf("warnings %q", run.Warnings)
	}
}
