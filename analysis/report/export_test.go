package report

import (
	"benchlens/internal/armtest"
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"benchlens/analysis/compare"
	"benchlens/analysis/stats"
	"benchlens/internal/version"
	"benchlens/model"
)

// entry compares two arms and wraps the record as an export entry.
func entry(id int64, base, cand compare.Arm) Entry {
	e := Entry{ID: id, SavedAt: "2025-06-02T09:00:00Z", Record: compare.Compare(base, cand, compare.DefaultSettings)}
	for _, a := range []compare.Arm{base, cand} {
		for _, rd := range a.Runs {
			e.Runs = append(e.Runs, rd.Run)
		}
	}
	return e
}

const injection = `=HYPERLINK("http://x","y")`

// testEntries is four realistic comparisons: established (with an analyst's note that looks
// like a formula and an override), zero, offset and a fallback (not established).
func testEntries(t testing.TB) []Entry {
	t.Helper()
	b := armtest.Baseline("base", 1).Build(1)
	est := entry(1, b, armtest.Candidate("fa-cand", 2, func(a *armtest.Spec) { a.TPOT = 10.8 }).Build(100))
	est.Annotation = Annotation{At: "2025-06-03T10:00:00Z", Author: "ana", Note: injection, Tags: []string{"decode", "+1"},
		StatusOverride: model.Offset, OverrideReason: "@ops: second look at the copies"}
	est.History = []Annotation{{At: "2025-06-02T10:00:00Z", Author: "ana", Note: "first look"}, est.Annotation}
	est.Files = map[int64][]string{1: {"bundles/base/result.json", "bundles/base/server.log"}}
	zero := entry(2, b, armtest.Candidate("zero-cand", 3, nil).Build(200))
	off := entry(3, b, armtest.Candidate("offset-cand", 4, func(a *armtest.Spec) {
		a.TTFT, a.TPOT, a.Copies, a.Shape = 54, 12.5, 4, model.ShapeIntermittent
	}).Build(300))
	fb := entry(4, b, armtest.Candidate("-fallback", 5, func(a *armtest.Spec) {
		a.Resolved, a.TPOT, a.Fallback = "FLASH_ATTN", 11.6, "Cannot use FLASHINFER backend: not installed"
	}).Build(400))
	want := []model.Status{model.Established, model.Zero, model.Offset, model.NotEstablished}
	out := []Entry{est, zero, off, fb}
	for i, e := range out {
		if e.Record.Status != want[i] {
			t.Fatalf("entry %d: status %s, want %s (%v)", e.ID, e.Record.Status, want[i], e.Record.Causes)
		}
	}
	return out
}

func recordsJSON(t *testing.T, recs []compare.Record) string {
	t.Helper()
	b, err := json.Marshal(recs)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The YAML export reads back with ReadYAML into the same records; the analyst's annotation
// and the comparison's identity ride along under their own keys.
func TestYAMLEntriesRoundTrip(t *testing.T) {
	entries := testEntries(t)
	var buf bytes.Buffer
	if err := YAMLEntries(&buf, entries); err != nil {
		t.Fatal(err)
	}
	got, err := ReadYAML(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(entries) {
		t.Fatalf("%d records, want %d", len(got), len(entries))
	}
	var want []compare.Record
	for _, e := range entries {
		want = append(want, e.Record)
	}
	// The records compare equal through their JSON form (NaN is not equal to itself, and
	// an empty list reads back as empty where it was nil).
	var plain bytes.Buffer
	if err := YAML(&plain, want); err != nil {
		t.Fatal(err)
	}
	ref, err := ReadYAML(&plain)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := recordsJSON(t, got), recordsJSON(t, ref); g != w {
		t.Errorf("records differ from the plain YAML round trip:\n%s\n%s", g, w)
	}
	for i := range got {
		g, w := recordsJSON(t, got[i:i+1]), recordsJSON(t, want[i:i+1])
		if normalizeEmpty(g) != normalizeEmpty(w) {
			t.Errorf("record %d differs from the original:\n%s\n%s", i, g, w)
		}
	}
	text := buf.String()
	for _, s := range []string{"analyst:", "status_override: offset", "history:", "comparison:", "stack_fingerprint:", "hardware_sku:",
		"resolved_backend:", "e2e_throughput:", "extra_copy:", "device_util_trace:", "hotspot_stage:", "status: established"} {
		if !strings.Contains(text, s) {
			t.Errorf("YAML lacks %q", s)
		}
	}
	var back []struct {
		Comparison struct {
			ID int64 `yaml:"id"`
		} `yaml:"comparison"`
		Analyst yamlAnalyst `yaml:"analyst"`
	}
	if err := yaml.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if a := back[0].Analyst; back[0].Comparison.ID != 1 || a.Note != injection || a.OverrideReason != entries[0].Annotation.OverrideReason ||
		strings.Join(a.Tags, ",") != "decode,+1" || len(a.History) != 2 || a.History[0].Note != "first look" {
		t.Errorf("analyst read back: %+v", back[0])
	}
}

// normalizeEmpty treats an empty JSON list like null.
func normalizeEmpty(s string) string { return strings.ReplaceAll(s, "[]", "null") }

func TestFlattenRecord(t *testing.T) {
	e := testEntries(t)[0]
	m := map[string]any{}
	var order []string
	for _, kv := range flattenRecord(e.Record) {
		if _, dup := m[kv.key]; dup {
			t.Errorf("duplicate key %s", kv.key)
		}
		m[kv.key] = kv.val
		order = append(order, kv.key)
	}
	checks := map[string]any{
		"stack_fingerprint.driver_version.baseline":  "550.54.15",
		"path.resolved_backend.candidate":            "FLASHINFER",
		"status":                                     string(model.Established),
		"hardware_sku.state":                         string(model.ConditionSame),
		"perf.tpot.n":                                "5, 5",
		"arms.baseline.runs":                         "1, 2, 3, 4, 5",
		"perf.tpot.delta_pct":                        e.Record.Perf[model.TPOT].Delta.F(),
		"buckets.rows.short.stages.tpot.significant": true,
	}
	for k, want := range checks {
		if got, ok := m[k]; !ok || got != want {
			t.Errorf("%s = %#v, want %#v", k, got, want)
		}
	}
	if order[0] != "stack_fingerprint.base_stack_version.baseline" {
		t.Errorf("first key %s", order[0])
	}
	if s, _ := m["hotspot.top_ops.baseline"].(string); !strings.HasPrefix(s, `[{"`) {
		t.Errorf("top ops as JSON text: %v", m["hotspot.top_ops.baseline"])
	}
}

// A bare entry (a record built by hand, no runs) exports without failing anywhere.
func TestBareEntry(t *testing.T) {
	entries := []Entry{{ID: 7, Record: compare.Record{Status: model.Zero,
		Arms: compare.Arms{Baseline: compare.ArmInfo{Label: "a", Runs: []int64{1}}, Candidate: compare.ArmInfo{Label: "b", Runs: []int64{2}}}}}}
	var buf bytes.Buffer
	if err := XLSX(&buf, entries, XLSXOptions{Requests: true}); err != nil {
		t.Fatal(err)
	}
	if err := csvToDir(t.TempDir(), entries); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&buf, entries); err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if err := YAMLEntries(&buf, entries); err != nil {
		t.Fatal(err)
	}
	if recs, err := ReadYAML(&buf); err != nil || len(recs) != 1 || recs[0].Status != model.Zero {
		t.Fatalf("%v %v", recs, err)
	}
}

func TestCDFMatchesPercentiles(t *testing.T) {
	xs := []float64{5, 1, 4, 2, 3, 10, 7}
	vals, probs := cdf(append([]float64(nil), xs...))
	if len(vals) != cdfPoints || probs[0] != 0 || probs[cdfPoints-1] != 1 {
		t.Fatalf("%d points, %v..%v", len(vals), probs[0], probs[cdfPoints-1])
	}
	for i, p := range probs {
		if want := stats.Percentile(append([]float64(nil), xs...), 100*p); math.Abs(vals[i]-want) > 1e-12 {
			t.Errorf("p=%v: %v, want %v", p, vals[i], want)
		}
	}
}

// The export's CDF tables drop the declared warm-up by start time, as the verdict and the
// charts do (compare.Measured), not the first requests in file order: a file listing requests
// in completion order made the workbook describe other requests than the verdict.
func TestWarmupDroppedByStartTime(t *testing.T) {
	run := model.NewRun("vllm")
	run.ID = 1
	run.Manifest = model.Manifest{"workload": map[string]any{"warmup_iters": 1}}
	// File order = completion order; the request issued first (start 0) is listed last.
	for _, r := range []struct{ start, ttft float64 }{{2, 0.020}, {1, 0.030}, {3, 0.040}, {0, 0.900}} {
		run.Requests = append(run.Requests, model.Request{InputLen: 10, OutputLen: 2, TTFT: r.ttft, TPOT: 0.01,
			Latency: r.ttft + 0.01, Start: r.start, ITL: []float64{0.01}})
	}
	e := Entry{ID: 1, Runs: []*model.Run{run}}
	got := armSamples(e, []int64{1}, model.TTFT)
	want := compare.Samples(compare.Measured(run), model.TTFT, nil)
	if len(got) != 3 || !slices.Equal(got, want) {
		t.Fatalf("export samples %v, verdict samples %v", got, want)
	}
	for _, v := range got {
		if v > 500 {
			t.Errorf("the warm-up request (issued first, TTFT 900 ms) is in the export's CDF: %v", got)
		}
	}
}

// Every export names the benchlens that wrote it and carries the rerun recipe; the YAML
// still reads back into the bare records.
func TestExportsCiteBenchlensAndRecipe(t *testing.T) {
	entries := testEntries(t)
	by := version.Info{Version: "v9.8.7", Commit: "0123456789abcdef", BuildDate: "2026-11-30T00:00:00Z", Go: "go1.26.8", SQLite: "3.50.4"}
	judge := version.Info{Version: "v9.8.6", Commit: "fedcba9876543210", BuildDate: "2026-11-29T00:00:00Z", Go: "go1.26.8", SQLite: "3.50.4"}
	for i := range entries {
		entries[i].Benchlens = by
		entries[i].Record.Benchlens = &judge
	}
	var y bytes.Buffer
	if err := YAMLEntries(&y, entries); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(y.String(), "  exported_by:\n    version: v9.8.7\n    commit: 0123456789abcdef\n") ||
		!strings.Contains(y.String(), "  benchlens:\n    version: v9.8.6\n") {
		t.Errorf("YAML lacks the blocks of the judging and the exporting build")
	}
	if !strings.Contains(y.String(), "reproduce:\n    baseline:\n") {
		t.Errorf("YAML lacks the recipe")
	}
	if recs, err := ReadYAML(bytes.NewReader(y.Bytes())); err != nil || len(recs) != 4 || len(recs[0].Reproduce.Baseline.Benchmark) == 0 {
		t.Errorf("read back: %v, %d records", err, len(recs))
	}
	var md bytes.Buffer
	if err := Markdown(&md, entries); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(md.String(), "_Written by benchlens v9.8.7 (commit 0123456789ab, built 2026-11-30T00:00:00Z, go1.26.8, SQLite 3.50.4)._\n") {
		t.Errorf("Markdown footer:\n%s", md.String()[max(0, md.Len()-300):])
	}
	if strings.Count(md.String(), "Judged by benchlens v9.8.6 (commit fedcba987654,") != 4 {
		t.Error("Markdown does not say which build judged each comparison")
	}
	if strings.Count(md.String(), "```sh\n# Rerun recipe") != 4 {
		t.Error("Markdown lacks a recipe per comparison")
	}
	_, f := exportXLSX(t, entries, XLSXOptions{})
	props, err := f.GetDocProps()
	if err != nil || props.Creator != "benchlens" || props.Version != "v9.8.7" || !strings.Contains(props.Description, "commit 0123456789ab") {
		t.Errorf("xlsx properties %+v %v", props, err)
	}
}
