package chart

import (
	"cmp"
	"errors"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"benchlens/analysis/compare"
	"benchlens/model"
)

// Titles of the load-point charts.
var (
	TitleLoadTTFT   = "Throughput against time to first token, per load point"
	TitleLoadTPOT   = "Throughput against time per output token, per load point"
	TitleLoadDeltas = "Change per load point, candidate vs baseline"
)

// CurvePoint is one marker of a load curve: the medians over repeats with their ranges.
type CurvePoint struct {
	X, XLow, XHigh float64 // output tok/s
	Y, YLow, YHigh float64 // latency, ms
	Label          string  // the load point, written beside the marker
}

// Curve is an arm's latency against throughput across load points: a line through the
// markers, a cross of whiskers at each marker for the spread over repeats, and each point's
// load written beside it.
type Curve struct {
	Points []CurvePoint
	Line   draw.LineStyle
	Glyph  draw.GlyphStyle
	// Whisker draws the spread over repeats.
	Whisker draw.LineStyle
}

// NewCurve returns a curve of points with the package styles in colour c, dashed when
// dashed. It rejects no points and non-finite values.
func NewCurve(points []CurvePoint, c color.Color, dashed bool) (*Curve, error) {
	if len(points) == 0 {
		return nil, errors.New("chart: curve of no points")
	}
	for i, p := range points {
		for _, v := range []float64{p.X, p.XLow, p.XHigh, p.Y, p.YLow, p.YHigh} {
			if !finite(v) {
				return nil, fmt.Errorf("chart: curve point %d is not finite", i)
			}
		}
	}
	cv := &Curve{Points: points, Line: lineStyle(c), Whisker: draw.LineStyle{Color: c, Width: vg.Points(1)},
		Glyph: draw.GlyphStyle{Color: c, Radius: vg.Points(3.5), Shape: draw.CircleGlyph{}}}
	if dashed {
		cv.Line.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		cv.Glyph.Shape = draw.RingGlyph{}
	}
	return cv, nil
}

// Plot implements plot.Plotter.
func (cv *Curve) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	pts := make([]vg.Point, len(cv.Points))
	for i, q := range cv.Points {
		pts[i] = vg.Point{X: tx(q.X), Y: ty(q.Y)}
	}
	c.StrokeLines(cv.Line, c.ClipLinesXY(pts)...)
	font := cv.labelStyle()
	for i, q := range cv.Points {
		x, y := pts[i].X, pts[i].Y
		c.StrokeLine2(cv.Whisker, tx(q.XLow), y, tx(q.XHigh), y)
		c.StrokeLine2(cv.Whisker, x, ty(q.YLow), x, ty(q.YHigh))
		if c.Contains(pts[i]) {
			c.DrawGlyph(cv.Glyph, pts[i])
			at := vg.Point{X: x + vg.Points(5), Y: y + vg.Points(3)}
			if q.Label != "" && claim(p, font.Rectangle(q.Label).Add(at)) { // not over another point's
				c.FillText(font, at, q.Label)
			}
		}
	}
}

func (cv *Curve) labelStyle() text.Style {
	st := newPlot("", "", "").Legend.TextStyle
	st.Color = cv.Line.Color
	return st
}

// DataRange implements plot.DataRanger: the whiskers included.
func (cv *Curve) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for _, q := range cv.Points {
		xmin, xmax = math.Min(xmin, q.XLow), math.Max(xmax, q.XHigh)
		ymin, ymax = math.Min(ymin, q.YLow), math.Max(ymax, q.YHigh)
	}
	return xmin, xmax, ymin, ymax
}

// Thumbnail draws the legend icon: a line with the marker.
func (cv *Curve) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(cv.Line, c.Min.X, y, c.Max.X, y)
	c.DrawGlyph(cv.Glyph, c.Center())
}

// curveSeries picks one latency of the record's load points for one arm.
func curveSeries(rec compare.Record, candidate bool, pick func(compare.CurvePoint) compare.Spread) []CurvePoint {
	var out []CurvePoint
	for _, lp := range rec.LoadPoints {
		c := lp.Curve.Baseline
		if candidate {
			c = lp.Curve.Candidate
		}
		y := pick(c)
		x := c.Throughput
		if !x.Median.Known() || !y.Median.Known() {
			continue
		}
		out = append(out, CurvePoint{X: x.Median.F(), XLow: x.Min.F(), XHigh: x.Max.F(),
			Y: y.Median.F(), YLow: y.Min.F(), YHigh: y.Max.F(), Label: shortPoint(lp.LoadPoint)})
	}
	return out
}

// shortPoint is a point's marker label: "c=64", "2 req/s".
func shortPoint(p model.LoadPoint) string {
	if p.MaxConcurrency.Known() {
		return "c=" + model.FormatNum(p.MaxConcurrency)
	}
	if p.RequestRate.Known() {
		return model.FormatNum(p.RequestRate) + " req/s"
	}
	return ""
}

// LoadCurves draws both arms' latency (p50 solid, p99 dashed) against output throughput, one
// marker per load point with the spread over repeats, on shared axes. metric is model.TTFT or
// model.TPOT. It is an error when the record has no load point with both numbers.
func LoadCurves(title string, rec compare.Record, metric string) (*plot.Plot, error) {
	p50, p99 := func(c compare.CurvePoint) compare.Spread { return c.TTFTP50 }, func(c compare.CurvePoint) compare.Spread { return c.TTFTP99 }
	yLabel := "time to first token (ms)"
	if metric == model.TPOT {
		p50, p99 = func(c compare.CurvePoint) compare.Spread { return c.TPOTP50 }, func(c compare.CurvePoint) compare.Spread { return c.TPOTP99 }
		yLabel = "time per output token (ms)"
	}
	bl, cl := armLabels(rec.Arms.Baseline.Label, rec.Arms.Candidate.Label)
	p := newPlot(title, "output throughput (tok/s, median over repeats; whiskers: lowest to highest run)", yLabel)
	lg := legend{p: p}
	for _, s := range []struct {
		label     string
		candidate bool
		col       color.Color
	}{{bl, false, BaselineColor}, {cl, true, CandidateColor}} {
		for _, q := range []struct {
			name   string
			pick   func(compare.CurvePoint) compare.Spread
			dashed bool
		}{{"p50", p50, false}, {"p99", p99, true}} {
			pts := curveSeries(rec, s.candidate, q.pick)
			if len(pts) == 0 {
				continue
			}
			if q.dashed { // the p50 markers name the points; twice would clutter
				for i := range pts {
					pts[i].Label = ""
				}
			}
			cv, err := NewCurve(pts, s.col, q.dashed)
			if err != nil {
				return nil, err
			}
			lg.series(s.label+" "+q.name, nil, cv)
		}
	}
	if len(lg.entries) == 0 {
		return nil, errors.New("chart: no load point has throughput and latency on both arms")
	}
	p.Y.Min = 0
	p.X.Max *= 1.08 // room for the last marker's label
	lg.done()
	return p, nil
}

// LoadDeltas draws each matched load point's stage changes (model.BriefMetrics) as
// BucketDeltas draws buckets. It is an error when the record has no load points.
func LoadDeltas(title string, rec compare.Record) (*plot.Plot, BarsAt, error) {
	if len(rec.LoadPoints) == 0 {
		return nil, nil, errors.New("chart: the record has no load points")
	}
	stages := model.BriefMetrics()
	n := len(stages)
	step, width := 0.235*groupScale(n, 4), 0.19*groupScale(n, 4)
	var items []Delta
	var ticks []plot.Tick
	for g, lp := range rec.LoadPoints {
		for k, s := range stages {
			x := float64(g) + (float64(k)-float64(n-1)/2)*step
			items = append(items, named(deltaIn(x, lp.Deltas, s.Key), s.Short+" · "+lp.Label))
			label := s.Short + "\n "
			if k == (n-1)/2 {
				label = s.Short + "\n" + cmp.Or(shortPoint(lp.LoadPoint), lp.Label) + " " + string(lp.Status)
			}
			ticks = append(ticks, plot.Tick{Value: x, Label: label})
		}
	}
	half := float64(n) / 2 * step
	return deltaPlot(title, "load point (its verdict) and stage", items, width, ticks, -half-0.1, float64(len(rec.LoadPoints)-1)+half+0.1, rec)
}
