package chart_test

import (
	"fmt"
	"image"
	"image/color"
	"testing"

	"gonum.org/v1/plot"

	"benchlens/analysis/chart"
	"benchlens/analysis/compare"
	"benchlens/internal/armtest"
)

// layoutPlots are the golden charts and a four-point sweep's, whose category labels and
// point labels are the densest.
func layoutPlots(t *testing.T) map[string]*plot.Plot {
	out := goldenPlots(t)
	b := armtest.Sweep(armtest.Baseline("sweep-baseline", 1), []float64{1, 4, 16, 64}, 1, nil)
	c := armtest.Sweep(armtest.Candidate("sweep-candidate", 5, func(s *armtest.Spec) { s.TPOT = 10.8 }), []float64{1, 4, 16, 64}, 100, nil)
	rec := compare.Compare(b, c, compare.DefaultSettings)
	sweep, _, err := chart.ForComparison(b, c, rec, chart.Options{})
	if err != nil {
		t.Fatal(err)
	}
	at, _, err := chart.ForPoint(b, c, rec, 1, chart.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for k, p := range sweep {
		out["sweep_"+k] = p
	}
	for k, p := range at {
		out["point_"+k] = p
	}
	if out["point_spread"] == nil {
		t.Fatal("no spread chart to lay out")
	}
	return out
}

// At the app's chart sizes (a 1024 px window's column, 1366's, 1920's grid) and the export's,
// every chart keeps its data area, no tick label touches another, the legend lies outside the
// data, and the title and axis labels are inside the image (wrapped, not cut).
func TestLayoutFitsEverySize(t *testing.T) {
	sizes := [][2]int{{330, 250}, {440, 273}, {600, 372}, {800, 500}, {1200, 750}}
	for name, p := range layoutPlots(t) {
		for _, sz := range sizes {
			w, h := sz[0], sz[1]
			t.Run(fmt.Sprintf("%s/%dx%d", name, w, h), func(t *testing.T) {
				l, err := chart.Layout(p, w, h)
				if err != nil {
					t.Fatal(err)
				}
				img := chart.Rect{X1: float64(w), Y1: float64(h)}
				if dh := l.Data.Y1 - l.Data.Y0; dh < 0.3*float64(h) {
					t.Errorf("data area %.0f px high of %d", dh, h)
				}
				for _, ticks := range [][]chart.Rect{l.XTicks, l.YTicks} {
					for i, r := range ticks {
						for _, o := range ticks[:i] {
							if r.Overlaps(o) {
								t.Errorf("tick labels %v and %v overlap", o, r)
							}
						}
					}
				}
				for i, e := range l.Legend {
					if e.Box.Overlaps(l.Data) {
						t.Errorf("legend entry %q %v over the data %v", e.Text, e.Box, l.Data)
					}
					if !e.Box.Within(img) {
						t.Errorf("legend entry %q %v cut at the edge", e.Text, e.Box)
					}
					for _, o := range l.Legend[:i] {
						if e.Box.Overlaps(o.Box) {
							t.Errorf("legend entries %q and %q overlap", o.Text, e.Text)
						}
					}
				}
				for what, r := range map[string]chart.Rect{"title": l.Title, "x label": l.XLabel, "y label": l.YLabel} {
					if r != (chart.Rect{}) && !r.Within(img) {
						t.Errorf("%s %v cut at the edge of %v", what, r, img)
					}
				}
			})
		}
	}
}

// count is how many pixels of img inside r are close to c.
func count(img image.Image, r chart.Rect, c color.Color) int {
	cr, cg, cb, _ := c.RGBA()
	n := 0
	for y := int(r.Y0); y < int(r.Y1); y++ {
		for x := int(r.X0); x < int(r.X1); x++ {
			pr, pg, pb, _ := img.At(x, y).RGBA()
			if absDiff(pr, cr) < 0x1800 && absDiff(pg, cg) < 0x1800 && absDiff(pb, cb) < 0x1800 {
				n++
			}
		}
	}
	return n
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

// A click on a series' legend entry (LegendAt) names it; Hide draws the chart without it,
// its entry greyed, and with it again when left out. The plot itself stays as it was.
func TestHideASeries(t *testing.T) {
	p, _, err := chart.CDF(chart.Options{}, "TTFT", "TTFT (ms)",
		chart.Series{Label: "base", Values: []float64{10, 20, 30, 40, 50}},
		chart.Series{Label: "cand", Values: []float64{12, 22, 32, 42, 52}})
	if err != nil {
		t.Fatal(err)
	}
	const w, h = 440, 273
	l, err := chart.Layout(p, w, h)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Legend) != 2 {
		t.Fatalf("legend %v", l.Legend)
	}
	e := l.Legend[0]
	text, ok := chart.LegendAt(p, w, h, (e.Box.X0+e.Box.X1)/2, (e.Box.Y0+e.Box.Y1)/2)
	if !ok || text != e.Text {
		t.Fatalf("a click on %q reads %q %v", e.Text, text, ok)
	}
	if _, ok := chart.LegendAt(p, w, h, (l.Data.X0+l.Data.X1)/2, (l.Data.Y0+l.Data.Y1)/2); ok {
		t.Error("a click in the data area hit a legend entry")
	}
	blue := func(p *plot.Plot) int {
		img, err := chart.Image(p, w, h)
		if err != nil {
			t.Fatal(err)
		}
		return count(img, l.Data, chart.BaselineColor)
	}
	shown := blue(p)
	hidden := chart.Hide(p, text)
	if shown < 100 || blue(hidden) > shown/20 {
		t.Errorf("baseline pixels in the data: %d shown, %d hidden", shown, blue(hidden))
	}
	hl, _ := chart.Layout(hidden, w, h)
	if !hl.Legend[0].Hidden || hl.Legend[1].Hidden {
		t.Errorf("legend after hiding: %+v", hl.Legend)
	}
	if again := blue(chart.Hide(hidden)); again != shown {
		t.Errorf("shown again: %d baseline pixels, %d before", again, shown)
	}
	if blue(p) != shown {
		t.Error("hiding changed the plot itself")
	}
	// A key entry (a bar's colour) names no series and hides nothing.
	d := goldenPlots(t)["comparison_stage_deltas"]
	dl, _ := chart.Layout(d, w, h)
	for _, e := range dl.Legend {
		if e.Series {
			t.Errorf("stage deltas' %q offered as a series", e.Text)
		}
	}
}

// Zoom shows part of the axes and reads out on them; the plot keeps its own.
func TestZoom(t *testing.T) {
	p, _, err := chart.CDF(chart.Options{}, "TTFT", "TTFT (ms)", chart.Series{Label: "a", Values: []float64{10, 20, 30, 40, 50}})
	if err != nil {
		t.Fatal(err)
	}
	x0, x1 := p.X.Min, p.X.Max
	z := chart.Zoom(p, 20, 30, 0.2, 0.6)
	const w, h = 800, 500
	l, _ := chart.Layout(z, w, h)
	x, y, ok := chart.Readout(z, w, h, (l.Data.X0+l.Data.X1)/2, (l.Data.Y0+l.Data.Y1)/2)
	if !ok || x < 24.9 || x > 25.1 || y < 0.39 || y > 0.41 {
		t.Errorf("zoomed centre reads %v %v %v", x, y, ok)
	}
	if p.X.Min != x0 || p.X.Max != x1 {
		t.Error("zooming changed the plot's axes")
	}
	if len(l.Legend) != 1 {
		t.Errorf("zoomed legend %v", l.Legend)
	}
}
