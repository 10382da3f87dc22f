package chart

import (
	"errors"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"benchlens/analysis/compare"
	"benchlens/model"
)

// TitleSpread is the title of the Spread chart.
var TitleSpread = "Spread of the runs per stage (the test compares these)"

// Spread draws the per-run statistics each stage's test compared (rule 2: the median of each
// run), as % of the baseline arm's median, so a reader sees why a change is significant or
// "~": per stage the baseline's runs (left, BaselineColor) around 0 and the candidate's runs
// (right, CandidateColor), each arm's median as a bar across its points and the candidate's
// interval as a whisker. Stages compared request by request (one run per arm) have no
// per-run values and are left out; it is an error when none is left.
func Spread(title string, rec compare.Record) (*plot.Plot, error) {
	p := newPlot(title, "stage", "run median vs the baseline's median (%)")
	var base, cand plotter.XYs
	var ticks []plot.Tick
	var medians []spreadMark
	for _, s := range model.StageMetrics {
		d, ok := rec.Perf[s.Key]
		if !ok || len(d.BaselineRuns) == 0 || len(d.CandidateRuns) == 0 || !d.Baseline.Known() || d.Baseline.F() == 0 {
			continue
		}
		x := float64(len(ticks))
		ticks = append(ticks, plot.Tick{Value: x, Label: s.Tick})
		rel := func(v float64) float64 { return 100 * (v/d.Baseline.F() - 1) }
		for i, v := range d.BaselineRuns {
			base = append(base, plotter.XY{X: x - 0.18 + jitter(i, len(d.BaselineRuns)), Y: rel(v)})
		}
		for i, v := range d.CandidateRuns {
			cand = append(cand, plotter.XY{X: x + 0.18 + jitter(i, len(d.CandidateRuns)), Y: rel(v)})
		}
		m := spreadMark{x: x, cand: math.NaN(), lo: math.NaN(), hi: math.NaN()}
		if d.Candidate.Known() {
			m.cand = rel(d.Candidate.F())
		}
		if d.CILow.Known() && d.CIHigh.Known() {
			m.lo, m.hi = d.CILow.F(), d.CIHigh.F()
		}
		medians = append(medians, m)
	}
	if len(ticks) == 0 {
		return nil, errors.New("chart: no stage has per-run values (one run per arm is compared request by request)")
	}
	lg := legend{p: p}
	for _, a := range []struct {
		pts   plotter.XYs
		col   color.Color
		label string
		shape draw.GlyphDrawer
	}{{base, BaselineColor, rec.Arms.Baseline.Label, draw.CircleGlyph{}}, {cand, CandidateColor, rec.Arms.Candidate.Label, draw.TriangleGlyph{}}} {
		sc, err := plotter.NewScatter(a.pts)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: a.col, Radius: vg.Points(3.2), Shape: a.shape}
		lg.series(a.label+": one point per run", nil, sc)
	}
	lg.series("arm median; whisker: interval of the change", spreadMarks{{x: 0, cand: 0, lo: math.NaN(), hi: math.NaN()}}, spreadMarks(medians))
	lg.done()
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = -0.6, float64(len(ticks))-0.4
	return p, nil
}

// jitter spreads a stage's points a little sideways so equal values stay visible.
func jitter(i, n int) float64 {
	if n <= 1 {
		return 0
	}
	return 0.12 * (float64(i)/float64(n-1) - 0.5)
}

// spreadMark is one stage's medians (baseline at 0, candidate at cand %) and interval.
type spreadMark struct{ x, cand, lo, hi float64 }

// spreadMarks draws the arms' medians as bars across their points and the candidate's
// interval as a whisker.
type spreadMarks []spreadMark

func (ms spreadMarks) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	ink := draw.LineStyle{Color: InkColor, Width: vg.Points(2)}
	thin := draw.LineStyle{Color: InkColor, Width: vg.Points(1)}
	for _, m := range ms {
		c.StrokeLine2(ink, tx(m.x-0.3), ty(0), tx(m.x-0.06), ty(0))
		if !math.IsNaN(m.cand) {
			c.StrokeLine2(ink, tx(m.x+0.06), ty(m.cand), tx(m.x+0.3), ty(m.cand))
		}
		if !math.IsNaN(m.lo) && !math.IsNaN(m.hi) {
			x := tx(m.x + 0.34)
			c.StrokeLine2(thin, x, ty(m.lo), x, ty(m.hi))
			c.StrokeLine2(thin, x-3, ty(m.lo), x+3, ty(m.lo))
			c.StrokeLine2(thin, x-3, ty(m.hi), x+3, ty(m.hi))
		}
	}
}

// DataRange includes every median and interval end.
func (ms spreadMarks) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = math.Inf(1), math.Inf(-1), 0, 0
	for _, m := range ms {
		xmin, xmax = math.Min(xmin, m.x), math.Max(xmax, m.x)
		for _, y := range []float64{m.cand, m.lo, m.hi} {
			if !math.IsNaN(y) {
				ymin, ymax = math.Min(ymin, y), math.Max(ymax, y)
			}
		}
	}
	return
}

// Thumbnail draws a median bar in the legend.
func (ms spreadMarks) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(draw.LineStyle{Color: InkColor, Width: vg.Points(2)}, c.Min.X, y, c.Max.X, y)
}
