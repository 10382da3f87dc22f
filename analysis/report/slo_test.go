package report

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"testing"

	"benchlens/analysis/compare"
	"benchlens/internal/armtest"
)

// sloEntry is sweepEntry judged against an SLO the candidate's faster decode meets more often.
func sloEntry(t testing.TB) Entry {
	t.Helper()
	base := armtest.Sweep(armtest.Baseline("base", 1), []float64{1, 16}, 1, nil)
	cand := armtest.Sweep(armtest.Candidate("cand", 5, func(s *armtest.Spec) { s.TPOT = 10.8 }), []float64{1, 16}, 100, nil)
	set := compare.DefaultSettings
	set.SLO = "ttft<=90,tpot<=12"
	e := entry(9, base, cand)
	e.Record = compare.Compare(base, cand, set)
	if e.Record.SLO == nil || len(e.Record.SLO.Points) != 2 {
		t.Fatalf("slo: %+v", e.Record.SLO)
	}
	return e
}

func TestTextAndMarkdownShowTheSLO(t *testing.T) {
	e := sloEntry(t)
	var txt, md bytes.Buffer
	if err := Text(&txt, e.Record); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&md, []Entry{e}); err != nil {
		t.Fatal(err)
	}
	h, ok := SLOHeadline(e.Record.SLO)
	if !ok || !strings.HasPrefix(h, "SLO attainment ") || !strings.Contains(h, "% at c=1–16, p=") {
		t.Errorf("headline %q", h)
	}
	for _, want := range []string{"SLO ttft<=90,tpot<=12 (capacity at attainment >= 90 %", "binding limit: TPOT binds: over TTFT",
		"concurrency 1 · 1024→64 tok ", " pp (p=", "  ok   slo          ttft<=90,tpot<=12: attainment "} {
		if !strings.Contains(txt.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, txt.String())
		}
	}
	if !strings.Contains(md.String(), "SLO `ttft<=90,tpot<=12`: **"+h+"**") || !strings.Contains(md.String(), "| point | baseline | candidate | attainment | goodput |") {
		t.Errorf("markdown:\n%s", md.String())
	}
}

// The SLO sheet has one row per point with shares as numbers and two native charts per
// comparison (attainment against load, the Pareto plane); the CSV export has slo.csv.
func TestXLSXAndCSVCarryTheSLO(t *testing.T) {
	e := sloEntry(t)
	data, f := exportXLSX(t, []Entry{e}, XLSXOptions{})
	if !slices.Contains(f.GetSheetList(), SheetSLO) {
		t.Fatalf("sheets %v", f.GetSheetList())
	}
	h := header(t, f, SheetSLO)
	for row := 2; row <= 3; row++ {
		for _, col := range []string{"load", "baseline.attainment", "candidate.attainment", "attainment.delta_pp", "candidate.output_tok_s_per_user"} {
			v, err := strconv.ParseFloat(raw(t, f, SheetSLO, h[col], row), 64)
			if err != nil {
				t.Errorf("row %d %s: %v", row, col, err)
			}
			if strings.HasSuffix(col, ".attainment") && (v < 0 || v > 1) {
				t.Errorf("row %d %s = %v, want a share", row, col, v)
			}
		}
	}
	charts := 0
	for name, body := range zipFiles(t, data) {
		if strings.HasPrefix(name, "xl/charts/chart") && strings.Contains(body, "SLO&#39;!$") {
			charts++
		}
	}
	if charts != 2 {
		t.Errorf("%d charts read the SLO sheet, want 2", charts)
	}
	files := map[string]string{}
	if err := CSV([]Entry{e}, func(name string, b []byte) error { files[name] = string(b); return nil }); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(files["slo.csv"]), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "comparison,slo,load point,load,baseline.attainment,") {
		t.Errorf("slo.csv:\n%s", files["slo.csv"])
	}
	_, plain := exportXLSX(t, []Entry{sweepEntry(t)}, XLSXOptions{})
	if slices.Contains(plain.GetSheetList(), SheetSLO) {
		t.Error("a workbook without an SLO has an SLO sheet")
	}
}
