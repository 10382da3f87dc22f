package chart

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"benchlens/analysis/stats"
)

// Series is one arm's (or any group's) sample of a metric, in ms.
type Series struct {
	Label  string
	Values []float64
	// Color overrides the colour the series' position gives it (first BaselineColor, second
	// CandidateColor, then Palette): set it when the baseline is missing, so the candidate
	// keeps its colour.
	Color color.Color
	// N is how many values the series stands for when Values is a thinned sample of them
	// (inter-token gaps); the legend's n gives it. 0: len(Values).
	N int
}

// ECDF is the empirical cumulative distribution of a sample: a step line through, for each
// distinct value x, the share of the values at or below x. It runs at 0 from the left edge of
// the chart to the smallest value and at 1 from the largest value to the right edge.
type ECDF struct {
	// XYs are the distinct values in increasing order, each with its share in (0, 1].
	XYs plotter.XYs
	// N is the number of values.
	N int
	draw.LineStyle
}

// NewECDF returns the ECDF of values; it rejects an empty sample, NaN and infinities.
func NewECDF(values []float64) (*ECDF, error) {
	if len(values) == 0 {
		return nil, errors.New("chart: ECDF of no values")
	}
	s := slices.Clone(values)
	for _, v := range s {
		if !finite(v) {
			return nil, fmt.Errorf("chart: ECDF of a non-finite value (%v)", v)
		}
	}
	if !slices.IsSorted(s) { // Samples come sorted
		stats.SortFloats(s)
	}
	n := float64(len(s))
	var xys plotter.XYs
	for i, v := range s {
		if i+1 < len(s) && s[i+1] == v {
			continue // the step is at the last of equal values
		}
		xys = append(xys, plotter.XY{X: v, Y: float64(i+1) / n})
	}
	return &ECDF{XYs: xys, N: len(s), LineStyle: lineStyle(BaselineColor)}, nil
}

// Plot implements plot.Plotter.
func (e *ECDF) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	pts := make([]vg.Point, 0, 2*len(e.XYs)+2)
	pts = append(pts, vg.Point{X: c.Min.X, Y: trY(0)})
	prev := 0.0
	for _, xy := range e.XYs {
		x := trX(max(xy.X, p.X.Min)) // values left of the axis (≤ 0 on a log scale) at its edge
		// Steps closer than a fraction of a point merge into one rise: the line looks the
		// same, and a million samples cost a few thousand segments.
		if n := len(pts); n >= 2 && x-pts[n-1].X < vg.Points(0.25) {
			pts[n-1].Y = trY(xy.Y)
			prev = xy.Y
			continue
		}
		pts = append(pts, vg.Point{X: x, Y: trY(prev)}, vg.Point{X: x, Y: trY(xy.Y)})
		prev = xy.Y
	}
	pts = append(pts, vg.Point{X: c.Max.X, Y: trY(prev)})
	c.StrokeLines(e.LineStyle, c.ClipLinesXY(pts)...)
}

// DataRange implements plot.DataRanger: the values' range, and 0..1.
func (e *ECDF) DataRange() (xmin, xmax, ymin, ymax float64) {
	return e.XYs[0].X, e.XYs[len(e.XYs)-1].X, 0, 1
}

// Thumbnail implements plot.Thumbnailer.
func (e *ECDF) Thumbnail(c *draw.Canvas) { lineThumb{e.LineStyle}.Thumbnail(c) }

// CDF overlays the empirical CDFs of the series (usually baseline then candidate; any number),
// x in ms (xLabel names the metric and its unit), y the share of requests from 0 to 1 (the
// label is CDFYLabel). The legend gives each series' label, median and count. NaN values are
// left out; a series with no finite value, or no series at all, is an error. The x axis is
// clipped unless opt says otherwise (see AxisClipped); opt.Tr translates the y label. It also
// returns what each series reads at an x value (for readouts under the mouse).
func CDF(opt Options, title, xLabel string, series ...Series) (*plot.Plot, SeriesAt, error) {
	clean, err := cleanSeries("CDF", series)
	if err != nil {
		return nil, nil, err
	}
	p := newPlot(title, xLabel, opt.tr(CDFYLabel))
	var at cdfAt
	lg := legend{p: p}
	for i, s := range series {
		e, err := NewECDF(clean[i])
		if err != nil {
			return nil, nil, err
		}
		at = append(at, labelled{s.Label, e})
		e.LineStyle = lineStyle(seriesColor(i, s.Color))
		n := fmt.Sprintf("n = %d", len(clean[i]))
		if s.N > len(clean[i]) {
			n = fmt.Sprintf(opt.tr("n = %d (%d drawn)"), s.N, len(clean[i]))
		}
		if opt.pooled > 1 {
			lg.series(fmt.Sprintf("%s: %s", s.Label, n), nil, e)
		} else {
			lg.series(fmt.Sprintf(opt.tr("%s: median %s ms, %s"), s.Label, fmtNum(stats.Median(clean[i])), n), nil, e)
		}
	}
	lg.done()
	p.Y.Min, p.Y.Max = 0, 1
	p.Y.Tick.Marker = plot.ConstantTicks(fractionTicks())
	setX(p, clean, opt.XAxis, opt.tr)
	return p, at.read, nil
}

// cleanSeries drops NaN and infinite values, and rejects no series or a series left empty.
func cleanSeries(what string, series []Series) ([][]float64, error) {
	if len(series) == 0 {
		return nil, fmt.Errorf("chart: %s of no series", what)
	}
	out := make([][]float64, len(series))
	for i, s := range series {
		for _, v := range s.Values {
			if finite(v) {
				out[i] = append(out[i], v)
			}
		}
		if len(out[i]) == 0 {
			return nil, fmt.Errorf("chart: %s: series %q has no finite values", what, s.Label)
		}
	}
	return out, nil
}

// fractionTicks are 0, 0.25 … 1 with minor ticks every 0.05.
func fractionTicks() []plot.Tick {
	var ts []plot.Tick
	for i := 0; i <= 20; i++ {
		v := float64(i) / 20
		t := plot.Tick{Value: v}
		if i%5 == 0 {
			t.Label = fmt.Sprintf("%g", v)
		}
		ts = append(ts, t)
	}
	return ts
}

// fmtNum prints a value in a chart's crowded legend or axis note: three significant digits
// (four from 1000), no exponent. Not model.Plain on purpose: a legend has no room for the
// fourth digit, and the readouts under the mouse give it (model.Plain).
func fmtNum(v float64) string {
	a := math.Abs(v)
	switch {
	case math.IsNaN(v):
		return "n/a"
	case a >= 100:
		return fmt.Sprintf("%.0f", v)
	case a >= 10:
		return fmt.Sprintf("%.1f", v)
	case a >= 1:
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.3f", v)
}
