package chart

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// TimelineSeries is one device's busy timeline: T in seconds, Busy in % (NaN where the tool
// printed no value).
type TimelineSeries struct {
	Label string
	// Device names the device the series was sampled on (for the legend's count: five runs
	// on one GPU are five runs, not five devices); "" counts each series as a device.
	Device string
	T      []float64
	Busy   []float64
	// Color overrides the colour the label's position gives it (see Timeline).
	Color color.Color
}

// BusyLine is a device's busy % over time, broken where a sample is missing (NaN); a sample
// alone between gaps is drawn as a dot.
type BusyLine struct {
	// XYs are the samples; Y is NaN for a missing one.
	XYs plotter.XYs
	draw.LineStyle
}

// NewBusyLine returns the line of busy over t. It rejects no samples, lengths that differ, a
// time that is NaN, infinite or decreasing, an infinite busy value and a line with no busy
// value at all.
func NewBusyLine(t, busy []float64) (*BusyLine, error) {
	switch {
	case len(t) == 0:
		return nil, errors.New("chart: busy line of no samples")
	case len(t) != len(busy):
		return nil, fmt.Errorf("chart: busy line of %d times and %d values", len(t), len(busy))
	}
	l := &BusyLine{XYs: make(plotter.XYs, len(t)), LineStyle: lineStyle(BaselineColor)}
	known := false
	for i := range t {
		switch {
		case !finite(t[i]):
			return nil, fmt.Errorf("chart: busy line time %d is %v", i, t[i])
		case i > 0 && t[i] < t[i-1]:
			return nil, fmt.Errorf("chart: busy line time goes back at sample %d (%v after %v)", i, t[i], t[i-1])
		case math.IsInf(busy[i], 0):
			return nil, fmt.Errorf("chart: busy line value %d is %v", i, busy[i])
		}
		known = known || !math.IsNaN(busy[i])
		l.XYs[i] = plotter.XY{X: t[i], Y: busy[i]}
	}
	if !known {
		return nil, errors.New("chart: busy line with no known value")
	}
	return l, nil
}

// Plot implements plot.Plotter.
func (l *BusyLine) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	var lines [][]vg.Point
	var cur []vg.Point
	flush := func() {
		switch len(cur) {
		case 0:
		case 1:
			dot := draw.GlyphStyle{Color: l.Color, Radius: l.Width, Shape: draw.CircleGlyph{}}
			if c.Contains(cur[0]) {
				c.DrawGlyph(dot, cur[0])
			}
		default:
			lines = append(lines, cur)
		}
		cur = nil
	}
	for _, xy := range l.XYs {
		if math.IsNaN(xy.Y) {
			flush()
			continue
		}
		cur = append(cur, vg.Point{X: trX(xy.X), Y: trY(xy.Y)})
	}
	flush()
	c.StrokeLines(l.LineStyle, c.ClipLinesXY(lines...)...)
}

// DataRange implements plot.DataRanger: the time span, and 0..100 %.
func (l *BusyLine) DataRange() (xmin, xmax, ymin, ymax float64) {
	return l.XYs[0].X, l.XYs[len(l.XYs)-1].X, 0, 100
}

// Thumbnail implements plot.Thumbnailer.
func (l *BusyLine) Thumbnail(c *draw.Canvas) { lineThumb{l.LineStyle}.Thumbnail(c) }

// TimelineAlpha is the opacity (0-255) of timeline lines, so the devices of an arm drawn over
// one another still show through.
var TimelineAlpha uint8 = 0xC0

// Timeline draws device busy % over time: one line per series (device and arm), time in
// seconds from each series' first sample, y fixed from 0 to 100 %, broken where a sample is
// missing. Series that share a label share a colour and one legend entry ("label (N
// devices)", or "(N traces, one device)" when they name one Device); the first label takes BaselineColor, the second CandidateColor, then Palette,
// unless a series sets Color. A series that NewBusyLine rejects is an error, and so is none.
func Timeline(title string, lines ...TimelineSeries) (*plot.Plot, error) {
	if len(lines) == 0 {
		return nil, errors.New("chart: timeline of no series")
	}
	p := newPlot(title, "time since the first sample (s)", "device busy (%)")
	type group struct {
		label   string
		col     color.Color
		n       int
		devices map[string]bool
		lines   []plot.Plotter
	}
	var groups []*group
	byLabel := map[string]*group{}
	for _, s := range lines {
		t := make([]float64, len(s.T))
		for i, v := range s.T {
			t[i] = v - s.T[0]
		}
		l, err := NewBusyLine(t, s.Busy)
		if err != nil {
			return nil, fmt.Errorf("%w (series %q)", err, s.Label)
		}
		g := byLabel[s.Label]
		if g == nil {
			g = &group{label: s.Label, col: seriesColor(len(groups), s.Color), devices: map[string]bool{}}
			byLabel[s.Label] = g
			groups = append(groups, g)
		}
		g.n++
		dev := s.Device
		if dev == "" {
			dev = fmt.Sprint(g.n)
		}
		g.devices[dev] = true
		col := g.col
		if s.Color != nil {
			col = s.Color
		}
		l.LineStyle = lineStyle(withAlpha(col, TimelineAlpha))
		g.lines = append(g.lines, l)
	}
	lg := legend{p: p}
	for _, g := range groups {
		text := g.label
		switch d := len(g.devices); {
		case d > 1 && g.n > d:
			text = fmt.Sprintf("%s (%d traces, %d devices)", g.label, g.n, d)
		case d > 1:
			text = fmt.Sprintf("%s (%d devices)", g.label, d)
		case g.n > 1:
			text = fmt.Sprintf("%s (%d traces, one device)", g.label, g.n)
		}
		lg.series(text, lineThumb{lineStyle(g.col)}, g.lines...)
	}
	lg.done()
	p.Y.Min, p.Y.Max = 0, 100
	p.Y.Tick.Marker = plot.ConstantTicks(percentTicks())
	p.X.Min = 0
	return p, nil
}

// TimelineAt reads a timeline at x seconds: per label, the mean over its series of the last
// sample at or before x (each series timed from its own first sample, as Timeline draws it);
// a label with no value there is left out.
func TimelineAt(lines ...TimelineSeries) SeriesAt {
	return func(x float64) []SeriesValue {
		var out []SeriesValue
		at := map[string]int{} // label → index in out
		n := map[string]int{}
		for _, s := range lines {
			if len(s.T) == 0 {
				continue
			}
			i := sort.SearchFloat64s(s.T, s.T[0]+x+1e-9) - 1 // last sample at or before x
			if i < 0 || i >= len(s.Busy) || math.IsNaN(s.Busy[i]) || x > s.T[len(s.T)-1]-s.T[0] {
				continue
			}
			j, ok := at[s.Label]
			if !ok {
				j = len(out)
				at[s.Label] = j
				out = append(out, SeriesValue{Label: s.Label, Color: s.Color})
			}
			out[j].Y += s.Busy[i]
			n[s.Label]++
		}
		for i := range out {
			out[i].Y /= float64(n[out[i].Label])
			out[i].Text = fmt.Sprintf("%.0f%% busy", out[i].Y)
		}
		return out
	}
}

// percentTicks are 0, 25 … 100 with minor ticks every 5.
func percentTicks() []plot.Tick {
	var ts []plot.Tick
	for v := 0; v <= 100; v += 5 {
		t := plot.Tick{Value: float64(v)}
		if v%25 == 0 {
			t.Label = fmt.Sprint(v)
		}
		ts = append(ts, t)
	}
	return ts
}

// withAlpha is c at opacity a (0-255).
func withAlpha(c color.Color, a uint8) color.Color {
	r, g, b, ca := c.RGBA()
	if ca == 0 {
		return color.NRGBA{}
	}
	// Un-premultiply, then set the opacity.
	return color.NRGBA{
		R: uint8(r * 0xFF / ca), G: uint8(g * 0xFF / ca), B: uint8(b * 0xFF / ca),
		A: uint8(uint32(a) * ca / 0xFFFF),
	}
}
