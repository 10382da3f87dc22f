package chart_test

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"benchlens/analysis/chart"
)

func TestNewECDF(t *testing.T) {
	for _, tc := range []struct {
		name   string
		values []float64
		want   plotter.XYs
	}{
		{"one", []float64{5}, plotter.XYs{{X: 5, Y: 1}}},
		{"sorted", []float64{1, 2, 3, 4}, plotter.XYs{{X: 1, Y: 0.25}, {X: 2, Y: 0.5}, {X: 3, Y: 0.75}, {X: 4, Y: 1}}},
		{"unsorted", []float64{3, 1, 2, 4}, plotter.XYs{{X: 1, Y: 0.25}, {X: 2, Y: 0.5}, {X: 3, Y: 0.75}, {X: 4, Y: 1}}},
		// Ties make one step to the share at or below the value.
		{"ties", []float64{2, 1, 2, 2, 5}, plotter.XYs{{X: 1, Y: 0.2}, {X: 2, Y: 0.8}, {X: 5, Y: 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := chart.NewECDF(tc.values)
			if err != nil {
				t.Fatal(err)
			}
			if e.N != len(tc.values) || len(e.XYs) != len(tc.want) {
				t.Fatalf("ECDF = %v (n %d), want %v", e.XYs, e.N, tc.want)
			}
			for i := range e.XYs {
				if e.XYs[i].X != tc.want[i].X || math.Abs(e.XYs[i].Y-tc.want[i].Y) > 1e-12 {
					t.Fatalf("ECDF = %v, want %v", e.XYs, tc.want)
				}
			}
			xmin, xmax, ymin, ymax := e.DataRange()
			if xmin != tc.want[0].X || xmax != tc.want[len(tc.want)-1].X || ymin != 0 || ymax != 1 {
				t.Fatalf("DataRange = %v %v %v %v", xmin, xmax, ymin, ymax)
			}
		})
	}
}

func TestRejects(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	ok := chart.Series{Label: "ok", Values: []float64{1, 2}}
	for _, tc := range []struct {
		name string
		err  func() error
	}{
		{"ECDF empty", func() error { _, err := chart.NewECDF(nil); return err }},
		{"ECDF NaN", func() error { _, err := chart.NewECDF([]float64{1, nan}); return err }},
		{"ECDF Inf", func() error { _, err := chart.NewECDF([]float64{inf}); return err }},
		{"CDF no series", func() error { _, _, err := chart.CDF(chart.Options{}, "t", "x (ms)"); return err }},
		{"CDF empty series", func() error {
			_, _, err := chart.CDF(chart.Options{}, "t", "x (ms)", ok, chart.Series{Label: "none"})
			return err
		}},
		{"CDF NaN only", func() error {
			_, _, err := chart.CDF(chart.Options{}, "t", "x (ms)", chart.Series{Label: "nan", Values: []float64{nan, nan}})
			return err
		}},
		{"histogram NaN only", func() error {
			_, _, err := chart.Histogram(chart.Options{Bins: 10}, "t", "x (ms)", ok, chart.Series{Label: "nan", Values: []float64{nan}})
			return err
		}},
		{"histogram bad range", func() error { _, err := chart.NewStepHistogram([]float64{1}, 2, 2, 3); return err }},
		{"timeline none", func() error { _, err := chart.Timeline("t"); return err }},
		{"timeline all NaN", func() error {
			_, err := chart.Timeline("t", chart.TimelineSeries{Label: "d", T: []float64{0, 1}, Busy: []float64{nan, nan}})
			return err
		}},
		{"timeline lengths", func() error {
			_, err := chart.Timeline("t", chart.TimelineSeries{Label: "d", T: []float64{0, 1}, Busy: []float64{1}})
			return err
		}},
		{"timeline time back", func() error {
			_, err := chart.Timeline("t", chart.TimelineSeries{Label: "d", T: []float64{0, 2, 1}, Busy: []float64{1, 2, 3}})
			return err
		}},
		{"deltas none", func() error { _, err := chart.NewDeltas(nil); return err }},
		{"deltas Inf", func() error { _, err := chart.NewDeltas([]chart.Delta{{Value: inf}}); return err }},
		{"image size", func() error {
			p, _, _ := chart.CDF(chart.Options{}, "t", "x (ms)", ok)
			_, err := chart.Image(p, 0, 10)
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.err(); err == nil {
				t.Fatal("no error")
			}
		})
	}
}

func TestCDFDropsNaNAndLabelsMedians(t *testing.T) {
	p, _, err := chart.CDF(chart.Options{}, "t", "x (ms)",
		chart.Series{Label: "base", Values: []float64{10, math.NaN(), 30, 20}},
		chart.Series{Label: "cand", Values: []float64{1, 2, 3, 4}})
	if err != nil {
		t.Fatal(err)
	}
	if p.Y.Min != 0 || p.Y.Max != 1 {
		t.Fatalf("y range %v..%v, want 0..1", p.Y.Min, p.Y.Max)
	}
	if p.X.Min >= 1 || p.X.Min < 0 || p.X.Max <= 30 {
		t.Fatalf("x range %v..%v", p.X.Min, p.X.Max)
	}
	svg, err := chart.SVG(p, 800, 500)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"base: median 20.0 ms, n = 3", "cand: median 2.50 ms, n = 4", "share of requests"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
}

// A CDF's x axis is clipped at the pooled p99.5 by default, saying so; full shows every value;
// log puts every positive value on a log scale. Each series reads its share at an x.
func TestCDFXAxis(t *testing.T) {
	vals := make([]float64, 1000)
	for i := range vals {
		vals[i] = float64(i % 100)
	}
	vals[999] = 10000 // one outlier
	for _, tc := range []struct {
		axis      chart.XAxis
		lo, hi    float64 // the axis ends within
		label     string
		logScaled bool
	}{
		{chart.AxisClipped, 98, 102, "clipped at p99.5 (99.0 ms), largest 10000 ms", false},
		{chart.AxisFull, 10000, 10300, "", false},
		{chart.AxisLog, 10000, 10600, "log scale", true},
	} {
		p, at, err := chart.CDF(chart.Options{XAxis: tc.axis}, "t", "gap (ms)", chart.Series{Label: "a", Values: vals})
		if err != nil {
			t.Fatal(err)
		}
		if p.X.Max < tc.lo || p.X.Max > tc.hi {
			t.Errorf("axis %d ends at %v, want %v..%v", tc.axis, p.X.Max, tc.lo, tc.hi)
		}
		if tc.label != "" && !strings.Contains(p.X.Label.Text, tc.label) || tc.label == "" && p.X.Label.Text != "gap (ms)" {
			t.Errorf("axis %d: x label %q, want %q", tc.axis, p.X.Label.Text, tc.label)
		}
		if _, isLog := p.X.Scale.(plot.LogScale); isLog != tc.logScaled {
			t.Errorf("axis %d: log scale %v", tc.axis, isLog)
		}
		if _, err := chart.PNG(p, 400, 300); err != nil {
			t.Errorf("axis %d: %v", tc.axis, err)
		}
		if got := at(49.5); len(got) != 1 || got[0].Label != "a" || got[0].Y != 0.5 {
			t.Errorf("share at 49.5: %v, want a 0.5", got)
		}
	}
}

func TestShareAxes(t *testing.T) {
	a, _, _ := chart.CDF(chart.Options{}, "a", "x (ms)", chart.Series{Label: "a", Values: []float64{1, 2}})
	b, _, _ := chart.CDF(chart.Options{}, "b", "x (ms)", chart.Series{Label: "b", Values: []float64{5, 9}})
	lo, hi := a.X.Min, b.X.Max
	chart.ShareX(a, nil, b)
	if a.X.Min != lo || a.X.Max != hi || b.X.Min != lo || b.X.Max != hi {
		t.Fatalf("shared x: a %v..%v, b %v..%v", a.X.Min, a.X.Max, b.X.Min, b.X.Max)
	}
	rec := synthRecord()
	s, _, _ := chart.StageDeltas("s", rec)
	bk, _, _ := chart.BucketDeltas("b", rec)
	chart.ShareY(s, bk)
	if s.Y.Min != bk.Y.Min || s.Y.Max != bk.Y.Max {
		t.Fatalf("shared y: %v..%v vs %v..%v", s.Y.Min, s.Y.Max, bk.Y.Min, bk.Y.Max)
	}
}
