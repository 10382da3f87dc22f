package report

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"benchlens/internal/armtest"
)

// sweepEntry compares two arms that ran concurrency 1 and 16, five repeats each; the
// candidate's decode is faster at both.
func sweepEntry(t testing.TB) Entry {
	t.Helper()
	e := entry(9, armtest.Sweep(armtest.Baseline("base", 1), []float64{1, 16}, 1, nil),
		armtest.Sweep(armtest.Candidate("cand", 5, func(s *armtest.Spec) { s.TPOT = 10.8 }), []float64{1, 16}, 100, nil))
	if len(e.Record.LoadPoints) != 2 {
		t.Fatalf("%d load points", len(e.Record.LoadPoints))
	}
	return e
}

func TestTextAndMarkdownListLoadPoints(t *testing.T) {
	e := sweepEntry(t)
	var txt, md bytes.Buffer
	if err := Text(&txt, e.Record); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&md, []Entry{e}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"by load point", "concurrency 1 ", "concurrency 16 ", "5+5", "holds under: established at concurrency 1-16"} {
		if !strings.Contains(txt.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, txt.String())
		}
	}
	// Stages and buckets come per point, under its heading, never pooled over the points.
	pooled, perPoint, _ := strings.Cut(txt.String(), "\nat concurrency 1 · 1024→64 tok (5+5 runs, established)\nstage ")
	if strings.Contains(pooled, "by input length") || strings.Contains(pooled, "TPOT (decode)") {
		t.Error("a sweep's text pools the points into stages or buckets")
	}
	at1, at16, ok := strings.Cut(perPoint, "\nat concurrency 16 · 1024→64 tok (5+5 runs, established)\nstage ")
	if !ok || !strings.Contains(at1, "TPOT (decode) ") || !strings.Contains(at16, "TPOT (decode) ") || !strings.Contains(at16, "by input length") {
		t.Errorf("text lacks each point's stages:\n%s", txt.String())
	}
	for _, want := range []string{"| concurrency 16 · 1024→64 tok | 5+5 |", "Holds under: established at concurrency 1-16.",
		"At concurrency 1 · 1024→64 tok (5+5 runs, established):\n\n| metric | baseline | candidate |", "At concurrency 16 · 1024→64 tok (5+5 runs, established):"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
}

// The Load points sheet has one row per point with numbers as numbers, and a native chart
// per comparison; workbooks without sweeps have no such sheet.
func TestXLSXLoadPoints(t *testing.T) {
	data, f := exportXLSX(t, []Entry{sweepEntry(t)}, XLSXOptions{})
	if !slices.Contains(f.GetSheetList(), SheetLoadPoints) {
		t.Fatalf("sheets %v", f.GetSheetList())
	}
	h := header(t, f, SheetLoadPoints)
	for row, want := range []string{"concurrency 1 · 1024→64 tok", "concurrency 16 · 1024→64 tok"} {
		if got := raw(t, f, SheetLoadPoints, h["load point"], row+2); got != want {
			t.Errorf("row %d: %q", row+2, got)
		}
		for _, col := range []string{"max_concurrency", "tpot.delta_pct", "baseline.output_tok_s", "candidate.tpot_p99"} {
			if _, err := strconv.ParseFloat(raw(t, f, SheetLoadPoints, h[col], row+2), 64); err != nil {
				t.Errorf("row %d %s: %v", row+2, col, err)
			}
		}
	}
	// The Stages sheet has each point's rows (absolute values, delta, p), none pooled.
	sh := header(t, f, SheetStages)
	rows, _ := f.GetRows(SheetStages)
	found := map[string]bool{}
	for r := 2; r <= len(rows); r++ {
		point, bucket, metric := raw(t, f, SheetStages, sh["load_point"], r), raw(t, f, SheetStages, sh["bucket"], r), raw(t, f, SheetStages, sh["metric"], r)
		if point == "" {
			t.Errorf("Stages row %d belongs to no load point: %s %s", r, bucket, metric)
		}
		if bucket == "all" && metric == "tpot" {
			found[point] = true
			for _, col := range []string{"baseline", "candidate", "delta_pct", "p"} {
				if _, err := strconv.ParseFloat(raw(t, f, SheetStages, sh[col], r), 64); err != nil {
					t.Errorf("Stages row %d %s: %v", r, col, err)
				}
			}
		}
	}
	if !found["concurrency 1 · 1024→64 tok"] || !found["concurrency 16 · 1024→64 tok"] {
		t.Errorf("Stages sheet's TPOT rows per point: %v", found)
	}
	if got := fillOf(t, f, SheetLoadPoints, ref(h["status"], 2)); got != "C6EFCE" {
		t.Errorf("status fill %q", got)
	}
	files := zipFiles(t, data)
	charts := 0
	for name, body := range files {
		if strings.HasPrefix(name, "xl/charts/chart") && strings.Contains(body, "Load points") {
			charts++
		}
	}
	if charts != 2 {
		t.Errorf("%d charts read the Load points sheet, want 2", charts)
	}
	_, plain := exportXLSX(t, testEntries(t), XLSXOptions{})
	if slices.Contains(plain.GetSheetList(), SheetLoadPoints) {
		t.Error("a Load points sheet without load points")
	}
}

func TestCSVLoadPoints(t *testing.T) {
	files := map[string]string{}
	if err := CSV([]Entry{sweepEntry(t)}, func(name string, data []byte) error { files[name] = string(data); return nil }); err != nil {
		t.Fatal(err)
	}
	lp := files["load_points.csv"]
	if !strings.HasPrefix(lp, "comparison,load point,max_concurrency,request_rate,") || !strings.Contains(lp, "9,concurrency 16 · 1024→64 tok,16,inf,5,5,established,") {
		t.Errorf("load_points.csv:\n%s", lp)
	}
}

// The YAML record keeps the load points, holds_under and the typed statuses through a round trip.
func TestYAMLKeepsLoadPoints(t *testing.T) {
	e := sweepEntry(t)
	var buf bytes.Buffer
	if err := YAMLEntries(&buf, []Entry{e}); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadYAML(&buf)
	if err != nil || len(recs) != 1 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	got, want := recs[0], e.Record
	if len(got.LoadPoints) != 2 || got.HoldsUnder != want.HoldsUnder || got.LoadPoints[1].Status != want.LoadPoints[1].Status ||
		got.LoadPoints[1].MaxConcurrency != 16 || !math.IsInf(got.LoadPoints[1].RequestRate.F(), 1) ||
		got.LoadPoints[1].Curve.Candidate.TPOTP50.Median != want.LoadPoints[1].Curve.Candidate.TPOTP50.Median {
		t.Errorf("after the round trip: %+v", got.LoadPoints)
	}
}
