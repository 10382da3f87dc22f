package report_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"benchlens/analysis/compare"
	"benchlens/analysis/report"
	"benchlens/library"
	"benchlens/model"
	"benchlens/store"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// realPairs are the comparisons the headline goldens are written from: the real FP16/FP8 H100
// pair (concurrency 1 and 64, one run each), and the demo's arms, the sweep among them.
func realPairs(t *testing.T) map[string]compare.Record {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "lib.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	dir := "../../testdata/fixtures/results/h100-fp16-vs-fp8/"
	for _, arm := range []struct {
		label string
		role  model.Role
		glob  string
	}{{"fp16", model.RoleBaseline, "FP16-*.json"}, {"fp8", model.RoleCandidate, "FP8-*.json"}} {
		files, _ := filepath.Glob(dir + arm.glob)
		if rep := library.Import(st, files, library.Options{Label: arm.label, Role: arm.role}); len(rep.Errors) > 0 || len(rep.Added) != 2 {
			t.Fatalf("import %s: %v %v", arm.label, rep.Added, rep.Errors)
		}
	}
	if rep := library.LoadDemo(st); len(rep.Errors) > 0 {
		t.Fatalf("demo: %v", rep.Errors)
	}
	out := map[string]compare.Record{}
	for _, p := range [][3]string{
		{"h100-fp16-vs-fp8", "fp16", "fp8"},
		{"demo-sweep", "sweep-baseline", "sweep-candidate"},
		{"demo-established", "baseline", "established"},
		{"demo-offset", "baseline", "offset"},
		{"demo-zero", "baseline", "zero"},
		{"demo-drift", "baseline", "drift"},
		{"demo-few-repeats", "baseline", "few-repeats"},
		{"demo-fallback", "baseline", "fallback"},
	} {
		rec, err := library.Compare(st, p[1], p[2], compare.DefaultSettings)
		if err != nil {
			t.Fatalf("%s: %v", p[0], err)
		}
		out[p[0]] = rec
	}
	return out
}

// The headline of each real comparison, in English and Chinese, is the golden text: it says
// what moved with its numbers, where it holds and why it does not count.
func TestHeadlineGolden(t *testing.T) {
	recs := realPairs(t)
	var b strings.Builder
	for _, name := range []string{"h100-fp16-vs-fp8", "demo-sweep", "demo-established", "demo-offset", "demo-zero", "demo-drift", "demo-few-repeats", "demo-fallback"} {
		h := report.HeadlineOf(recs[name])
		b.WriteString(name + " [" + string(h.Status) + "]\n")
		for _, l := range report.Langs {
			b.WriteString("  " + h.Text(l) + "\n")
		}
		for _, s := range h.Spans {
			if s.Tone != report.Plain {
				b.WriteString("    " + map[report.Tone]string{report.Better: "better", report.Worse: "worse"}[s.Tone] + ": " + s.In(report.English) + "\n")
			}
		}
	}
	golden := "testdata/headlines.golden"
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if b.String() != string(want) {
		t.Errorf("headlines differ from %s (-update rewrites it):\n%s", golden, b.String())
	}
}

// The text report, the Markdown, the CSV and the workbook show the one headline HeadlineOf
// writes.
func TestHeadlineInEveryExport(t *testing.T) {
	rec := realPairs(t)["h100-fp16-vs-fp8"]
	want := report.HeadlineOf(rec).String()
	var txt, md, xl bytes.Buffer
	e := report.Entry{ID: 1, Record: rec}
	if err := report.Text(&txt, rec); err != nil {
		t.Fatal(err)
	}
	if err := report.Markdown(&md, []report.Entry{e}); err != nil {
		t.Fatal(err)
	}
	if err := report.XLSX(&xl, []report.Entry{e}, report.XLSXOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(txt.String(), "headline:  not_established: "+want+"\n") {
		t.Errorf("the text report lacks the headline %q:\n%s", want, txt.String())
	}
	if !strings.Contains(md.String(), "\n"+want+"\n") {
		t.Errorf("the Markdown lacks the headline %q:\n%s", want, md.String())
	}
	f, err := excelize.OpenReader(&xl)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, _ := f.GetRows(report.SheetVerdicts)
	col := slices.Index(rows[0], "headline")
	if col < 0 || len(rows) < 2 || rows[1][col] != want {
		t.Errorf("the Verdicts sheet's headline: %v, want %q", rows, want)
	}
}

// Arms that share no load point compare no stage: the text report says so, with no empty
// table header.
func TestTextNoStageNoHeader(t *testing.T) {
	rec := realPairs(t)["demo-drift"]
	var b bytes.Buffer
	if err := report.Text(&b, rec); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "stage  baseline  candidate") || !strings.Contains(b.String(), "\nno stage compared\n") {
		t.Errorf("text report of arms with no common point:\n%s", b.String())
	}
}
