package chart_test

import (
	"math"
	"testing"

	"benchlens/analysis/chart"
	"benchlens/analysis/compare"
	"benchlens/internal/armtest"
	"benchlens/model"
)

// sweepRecord compares two arms that ran concurrency 1 and 16, five repeats each.
func sweepRecord(t *testing.T) (compare.Arm, compare.Arm, compare.Record) {
	t.Helper()
	b := armtest.Sweep(armtest.Baseline("base", 1), []float64{1, 16}, 1, nil)
	c := armtest.Sweep(armtest.Candidate("cand", 5, func(s *armtest.Spec) { s.TPOT = 10.8 }), []float64{1, 16}, 100, nil)
	rec := compare.Compare(b, c, compare.DefaultSettings)
	if len(rec.LoadPoints) != 2 {
		t.Fatalf("%d load points", len(rec.LoadPoints))
	}
	return b, c, rec
}

func TestLoadChartsForASweep(t *testing.T) {
	b, c, rec := sweepRecord(t)
	plots, _, err := chart.ForComparison(b, c, rec, chart.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"load_ttft", "load_tpot", "load_deltas"} {
		p := plots[k]
		if p == nil {
			t.Fatalf("%s missing", k)
		}
		if _, err := chart.PNG(p, 800, 500); err != nil {
			t.Errorf("%s: %v", k, err)
		}
	}
	// Both curves share the throughput axis, and it spans every marker's whisker.
	lt, lp := plots["load_ttft"].X, plots["load_tpot"].X
	if lt.Min != lp.Min || lt.Max != lp.Max {
		t.Errorf("x axes differ: %v-%v vs %v-%v", lt.Min, lt.Max, lp.Min, lp.Max)
	}
	for _, p := range rec.LoadPoints {
		for _, cv := range []compare.CurvePoint{p.Curve.Baseline, p.Curve.Candidate} {
			if cv.Throughput.Min.F() < lt.Min || cv.Throughput.Max.F() > lt.Max {
				t.Errorf("%s: throughput %v-%v outside the axis", p.Label, cv.Throughput.Min, cv.Throughput.Max)
			}
		}
	}
	// A single-point record draws no load charts.
	one := rec
	one.LoadPoints = nil
	plots, _, _ = chart.ForComparison(b, c, one, chart.Options{})
	if plots["load_ttft"] != nil || plots["load_deltas"] != nil {
		t.Error("load charts drawn for one point")
	}
}

func TestNewCurveRejects(t *testing.T) {
	if _, err := chart.NewCurve(nil, chart.BaselineColor, false); err == nil {
		t.Error("empty curve accepted")
	}
	bad := []chart.CurvePoint{{X: 1, XLow: 1, XHigh: 1, Y: math.NaN(), YLow: 1, YHigh: 1}}
	if _, err := chart.NewCurve(bad, chart.BaselineColor, false); err == nil {
		t.Error("NaN accepted")
	}
	if _, err := chart.LoadCurves("t", compare.Record{}, model.TTFT); err == nil {
		t.Error("a record without load points drew curves")
	}
}
