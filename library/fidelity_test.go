package library

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"benchlens/analysis/compare"
	"benchlens/model"
	"benchlens/store"
)

// The files of testdata/fidelity are written for these tests, shaped like the tools' own
// output (key names and value types from the tools' sources): GuideLLM 0.5 benchmarks.json
// with warm-up / cool-down records and with a sampled request list, an SGLang fork's
// bench_serving JSONL, an AIPerf export without version keys, llmperf summaries wrapped by
// concurrency and vLLM's nightly-benchmark summary table.
const fidelity = "testdata/fidelity"

// importOne imports one testdata folder and returns its runs with their requests.
func importOne(t *testing.T, dir string) (*store.Store, []*model.Run, Report) {
	t.Helper()
	st := openStore(t)
	rep := Import(st, []string{filepath.Join(fidelity, dir)}, Options{})
	var runs []*model.Run
	for _, id := range rep.Added {
		r, err := st.Run(id)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	return st, runs, rep
}

func wantOneRun(t *testing.T, runs []*model.Run, rep Report) *model.Run {
	t.Helper()
	if len(rep.Errors) > 0 || len(runs) != 1 {
		t.Fatalf("import: %d runs, errors %v", len(runs), rep.Errors)
	}
	return runs[0]
}

// A sample of 1 of 46 requests never replaces the tool's statistics, is said on the run, and
// the analysis compares the tool's figures.
func TestSampledRequestsKeepTheToolsStatistics(t *testing.T) {
	st, runs, rep := importOne(t, "guidellm-sampled")
	run := wantOneRun(t, runs, rep)
	if run.Sampled == nil || run.Sampled.Records != 1 || run.Sampled.Population != 46 || !strings.Contains(run.Sampled.Why, "sample") {
		t.Fatalf("sampled %+v", run.Sampled)
	}
	if len(run.Recomputed) != 0 || len(run.Requests) != 1 {
		t.Errorf("recomputed from the sample: %v (%d records)", run.Recomputed, len(run.Requests))
	}
	row := Row(run, nil)
	med, recomputed := row.TTFT.Median()
	if row.TTFT.Used != model.UsedTool || recomputed || math.Abs(med.F()-run.Summary[model.TTFT]["median"].F()) > 1e-9 || med.F() > 18 {
		t.Errorf("ttft used %q median %v (recomputed %v); the kept record says 21.28", row.TTFT.Used, med, recomputed)
	}
	if !hasWarning(run.Warnings, "a sample (1 of 46") {
		t.Errorf("warnings %q", run.Warnings)
	}
	if compare.Measured(run) != nil {
		t.Error("the analysis measures a sample as the run's requests")
	}
	rd, err := LoadRun(st, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	rec := compare.Compare(compare.NewArm("a", []compare.RunData{rd}), compare.NewArm("b", []compare.RunData{rd}), compare.Settings{})
	if !hasWarning(rec.Warnings, "the tool's statistics are used") || len(rec.Measurement.Sampled) != 2 {
		t.Errorf("record warnings %q, sampled %q", rec.Warnings, rec.Measurement.Sampled)
	}
	for _, c := range rec.Checklist() {
		if c.Name == "measurement" && !strings.Contains(c.Reason, "a sample (1 of 46") {
			t.Errorf("checklist measurement %q", c.Reason)
		}
	}
	if got := rec.Perf[model.TTFT].Baseline; math.Abs(got.F()-med.F()) > 1e-9 {
		t.Errorf("compared TTFT %v, want the tool's median %v", got, med)
	}
}

// GuideLLM 0.5 keeps warm-up and cool-down records that its statistics exclude: benchlens
// excludes them too, recomputes exactly the tool's figures from the rest, and records the
// warm-up as declared. The incomplete request stays incomplete.
func TestToolWarmupAndCooldownExcluded(t *testing.T) {
	st, runs, rep := importOne(t, "guidellm-warmup")
	run := wantOneRun(t, runs, rep)
	w := run.ToolWarmup
	if w == nil || w.Requests != 1 || w.Cooldown != 1 || !w.InFile || !strings.Contains(w.Setting, `warmup {"mode":"duration"`) {
		t.Fatalf("tool warm-up %+v", w)
	}
	ok := 0
	for _, r := range run.Requests {
		if r.OK() {
			ok++
		}
	}
	if ok != 4 || run.Sampled != nil {
		t.Fatalf("%d successful records kept, sampled %+v", ok, run.Sampled)
	}
	for _, m := range []string{model.TTFT, model.E2EL} {
		for _, stat := range []string{"mean", "median", "max"} {
			tool, got := run.Summary[m][stat].F(), run.Recomputed[m][stat].F()
			if math.Abs(got-tool) > 1e-6*tool {
				t.Errorf("%s %s recomputed %v, tool %v", m, stat, got, tool)
			}
		}
		if run.Used(m) != model.UsedRecomputed {
			t.Errorf("%s used %q", m, run.Used(m))
		}
	}
	if run.Completed != 4 || run.Errored != 0 || run.Incomplete != 1 || run.Failed != 1 || run.Cancelled.Known() {
		t.Errorf("counts ok %v errored %v incomplete %v failed %v cancelled %v", run.Completed, run.Errored, run.Incomplete, run.Failed, run.Cancelled)
	}
	rd, err := LoadRun(st, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	rec := compare.Compare(compare.NewArm("a", []compare.RunData{rd}), compare.NewArm("b", []compare.RunData{rd}), compare.Settings{})
	if rec.Measurement.WarmupIters != [2]string{"1", "1"} || strings.Contains(causeText(rec), "record no warm-up") {
		t.Errorf("warm-up %v, causes %s", rec.Measurement.WarmupIters, causeText(rec))
	}
	if n := len(compare.Measured(run)); n != 5 {
		t.Errorf("measured %d requests, want the 5 the tool measured (nothing more dropped)", n)
	}
}

// The strongest signal names the tool: an SGLang fork's backend field, AIPerf's own keys.
func TestToolIdentity(t *testing.T) {
	_, runs, rep := importOne(t, "sglang-fork")
	if len(rep.Errors) > 0 || len(runs) != 2 {
		t.Fatalf("sglang fork: %d runs, errors %v", len(runs), rep.Errors)
	}
	for _, r := range runs {
		if r.Tool != "sglang" || r.Era == model.EraVLLMC || !strings.Contains(r.IdentifiedBy, `backend "sglang"`) {
			t.Errorf("sglang fork: tool %q era %q identified by %q", r.Tool, r.Era, r.IdentifiedBy)
		}
		if m, _ := r.Summary[model.E2EL].Median(); !m.Known() {
			t.Errorf("sglang fork: e2e latency not read: %v", r.Summary)
		}
	}

	_, runs, rep = importOne(t, "aiperf-unversioned")
	r := wantOneRun(t, runs, rep)
	if r.Tool != "aiperf" || !strings.Contains(r.IdentifiedBy, "was_cancelled") || r.Model != "meta-llama/Llama-3.1-8B-Instruct" ||
		r.MaxConcurrency != 8 || r.Completed != 400 || r.Date != "2025-09-18T10:21:03.112045" {
		t.Errorf("aiperf: tool %q identified by %q model %q concurrency %v completed %v date %q", r.Tool, r.IdentifiedBy, r.Model, r.MaxConcurrency, r.Completed, r.Date)
	}
	if r.ToolWarmup == nil || r.ToolWarmup.Requests != 10 || r.ToolWarmup.InFile {
		t.Errorf("aiperf warm-up %+v", r.ToolWarmup)
	}
}

// A JSON object wrapping llmperf summaries by concurrency imports as one run per key, the
// key read as the load point; vLLM's nightly summary table is named and refused with why.
func TestWrappersAndTables(t *testing.T) {
	_, runs, rep := importOne(t, "llmperf-wrapper")
	if len(rep.Errors) > 0 || len(runs) != 3 {
		t.Fatalf("wrapper: %d runs, errors %v", len(runs), rep.Errors)
	}
	byConc := map[float64]*model.Run{}
	for _, r := range runs {
		byConc[r.MaxConcurrency.F()] = r
		if r.Tool != "llmperf" || r.Extra["wrapper_key"] == nil || len(r.Warnings) > 0 {
			t.Errorf("wrapped run: tool %q extra %v warnings %q", r.Tool, r.Extra["wrapper_key"], r.Warnings)
		}
	}
	if len(byConc) != 3 || byConc[16] == nil {
		t.Fatalf("load points %v", byConc)
	}
	if m, _ := byConc[16].Summary[model.TTFT].Median(); math.Abs(m.F()-1.9*586.917666500085) > 1e-6 {
		t.Errorf("c16 ttft median %v", m)
	}

	_, runs, rep = importOne(t, "vllm-nightly")
	if len(runs) != 0 || len(rep.Errors) != 1 {
		t.Fatalf("nightly table: %d runs, errors %v", len(runs), rep.Errors)
	}
	msg := rep.Errors[0].Error()
	for _, want := range []string{"vllm_nightly_results.json", "vLLM nightly-benchmark summary table", "no model", "per-test result JSONs"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not say %q", msg, want)
		}
	}
}

func hasWarning(ws []model.Warning, sub string) bool {
	for _, w := range ws {
		if strings.Contains(w.English(), sub) {
			return true
		}
	}
	return false
}

func causeText(rec compare.Record) string {
	var b strings.Builder
	for _, c := range rec.Causes {
		b.WriteString(string(c.Code) + ": " + c.Reason + "; ")
	}
	return b.String()
}

// AIPerf writes its warm-up requests into profile_export.jsonl marked benchmark_phase
// "warmup"; its statistics leave them out, and so does benchlens.
func TestAIPerfWarmupRecordsExcluded(t *testing.T) {
	_, runs, rep := importOne(t, "aiperf-warmup")
	run := wantOneRun(t, runs, rep)
	if w := run.ToolWarmup; w == nil || w.Requests != 1 || !w.InFile || !strings.Contains(w.Setting, "phases[0]") {
		t.Fatalf("tool warm-up %+v", run.ToolWarmup)
	}
	if len(run.Requests) != 2 || run.Sampled != nil {
		t.Fatalf("%d records, sampled %+v", len(run.Requests), run.Sampled)
	}
	tool, got := run.Summary[model.TTFT]["mean"].F(), run.Recomputed[model.TTFT]["mean"].F()
	if math.Abs(got-tool) > 1e-9 || run.Used(model.TTFT) != model.UsedRecomputed {
		t.Errorf("TTFT mean recomputed %v, tool %v (used %q)", got, tool, run.Used(model.TTFT))
	}
}
