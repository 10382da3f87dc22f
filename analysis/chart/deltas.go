package chart

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"benchlens/analysis/compare"
	"benchlens/model"
)

// Delta is one stage's change, candidate vs baseline, in %.
type Delta struct {
	X                float64 // position on the x axis
	Value, Low, High float64 // the change and its interval; NaN when unknown
	Significant      bool    // p < alpha and beyond the noise floor
	Better, Worse    bool    // significant, in the good or the bad direction
	// Name and Of are what the bar stands for and the change it draws, for a readout.
	Name string
	Of   compare.StageDelta
}

// Deltas draws changes as bars from zero, filled by outcome (BetterColor, WorseColor,
// NeutralColor for "~"), their intervals as whiskers, and each value written beyond the
// whisker. An unknown change is written "n/a" at zero.
type Deltas struct {
	Items []Delta
	// Width is a bar's width in x units.
	Width float64
	// Better, Worse and Neutral fill the bars.
	Better, Worse, Neutral color.Color
	// Outline draws the bars' edges; Whisker the intervals.
	Outline, Whisker draw.LineStyle
	// CapWidth is the width of a whisker's caps.
	CapWidth vg.Length
	// Label writes the values; no text when its font size is 0.
	Label text.Style
}

// NewDeltas returns the bars of items with the package styles. It rejects no items, a
// position that is NaN or infinite and infinite values; NaN values are unknown changes.
func NewDeltas(items []Delta) (*Deltas, error) {
	if len(items) == 0 {
		return nil, errors.New("chart: deltas of no items")
	}
	for i, d := range items {
		if !finite(d.X) {
			return nil, fmt.Errorf("chart: delta %d at x = %v", i, d.X)
		}
		for _, v := range []float64{d.Value, d.Low, d.High} {
			if math.IsInf(v, 0) {
				return nil, fmt.Errorf("chart: delta %d is infinite", i)
			}
		}
	}
	return &Deltas{
		Items:    items,
		Width:    0.6,
		Better:   BetterColor,
		Worse:    WorseColor,
		Neutral:  NeutralColor,
		Outline:  draw.LineStyle{Color: InkColor, Width: vg.Points(0.8)},
		Whisker:  draw.LineStyle{Color: InkColor, Width: vg.Points(1.4)},
		CapWidth: vg.Points(8),
		Label: text.Style{
			Color: InkColor, Font: font.From(Font, TickSize), XAlign: draw.XCenter,
			Handler: plot.DefaultTextHandler,
		},
	}, nil
}

func (d *Deltas) fill(it Delta) color.Color {
	switch {
	case it.Better:
		return d.Better
	case it.Worse:
		return d.Worse
	}
	return d.Neutral
}

// labelAt is where an item's text goes (its y and whether above) and the text.
func labelAt(it Delta) (y float64, above bool, txt string) {
	if math.IsNaN(it.Value) {
		return 0, true, "n/a"
	}
	y, above = it.Value, it.Value >= 0
	if above && !math.IsNaN(it.High) {
		y = max(y, it.High)
	}
	if !above && !math.IsNaN(it.Low) {
		y = min(y, it.Low)
	}
	return y, above, fmtPct(it.Value)
}

// fmtPct writes a change in % with its sign, e.g. "−12.3%".
func fmtPct(v float64) string {
	s := fmt.Sprintf("%.1f%%", math.Abs(v))
	if math.Abs(v) >= 100 {
		s = fmt.Sprintf("%.0f%%", math.Abs(v))
	}
	switch {
	case v > 0:
		return "+" + s
	case v < 0:
		return "\u2212" + s
	}
	return s
}

const labelGap = 3 // points between a whisker's end and its text

// Plot implements plot.Plotter.
func (d *Deltas) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, it := range d.Items {
		x0, x1 := trX(it.X-d.Width/2), trX(it.X+d.Width/2)
		if !math.IsNaN(it.Value) {
			y0, y1 := trY(0), trY(it.Value)
			bar := []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
			c.FillPolygon(d.fill(it), c.ClipPolygonXY(bar))
			c.StrokeLines(d.Outline, c.ClipLinesXY(append(bar, bar[0]))...)
		}
		if !math.IsNaN(it.Low) && !math.IsNaN(it.High) {
			x := trX(it.X)
			lo, hi := trY(it.Low), trY(it.High)
			c.StrokeLines(d.Whisker, c.ClipLinesXY(
				[]vg.Point{{X: x, Y: lo}, {X: x, Y: hi}},
				[]vg.Point{{X: x - d.CapWidth/2, Y: lo}, {X: x + d.CapWidth/2, Y: lo}},
				[]vg.Point{{X: x - d.CapWidth/2, Y: hi}, {X: x + d.CapWidth/2, Y: hi}},
			)...)
		}
		if d.Label.Font.Size > 0 {
			y, above, txt := labelAt(it)
			sty := d.Label
			pt := vg.Point{X: trX(it.X), Y: trY(y) + labelGap}
			sty.YAlign = draw.YBottom
			if !above {
				pt.Y = trY(y) - labelGap
				sty.YAlign = draw.YTop
			}
			if claim(p, sty.Rectangle(txt).Add(pt)) { // not over a neighbour's value
				c.FillText(sty, pt, txt)
			}
		}
	}
}

// DataRange implements plot.DataRanger: the items' span and every value and interval end,
// with zero.
func (d *Deltas) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = math.Inf(1), math.Inf(-1)
	for _, it := range d.Items {
		xmin, xmax = min(xmin, it.X-d.Width/2), max(xmax, it.X+d.Width/2)
		for _, v := range []float64{it.Value, it.Low, it.High} {
			if !math.IsNaN(v) {
				ymin, ymax = min(ymin, v), max(ymax, v)
			}
		}
	}
	return xmin, xmax, ymin, ymax
}

// GlyphBoxes implements plot.GlyphBoxer: the value texts, so the plot makes room for them.
func (d *Deltas) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	if d.Label.Font.Size == 0 {
		return nil
	}
	var boxes []plot.GlyphBox
	for _, it := range d.Items {
		y, above, txt := labelAt(it)
		r := d.Label.Rectangle(txt)
		w, h := r.Max.X-r.Min.X, r.Max.Y-r.Min.Y
		box := vg.Rectangle{Min: vg.Point{X: -w / 2, Y: labelGap}, Max: vg.Point{X: w / 2, Y: labelGap + h}}
		if !above {
			box.Min.Y, box.Max.Y = -labelGap-h, -labelGap
		}
		boxes = append(boxes, plot.GlyphBox{X: p.X.Norm(it.X), Y: p.Y.Norm(y), Rectangle: box})
	}
	return boxes
}

// zeroLine is a horizontal line at y = 0 across the chart.
type zeroLine struct{ style draw.LineStyle }

func (z zeroLine) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	y := trY(0)
	if c.ContainsY(y) {
		c.StrokeLine2(z.style, c.Min.X, y, c.Max.X, y)
	}
}

// DeltaYLabel is the y label of StageDeltas and BucketDeltas.
var DeltaYLabel = "change vs baseline (%)"

// groupScale narrows the bars of a group of n when there are more than fit drawn at full
// width (full): the group keeps its width.
func groupScale(n, full int) float64 { return math.Min(1, float64(full)/float64(n)) }

// deltaIn is deltaOf for a stage of a delta table; a stage the table lacks is unknown.
func deltaIn(x float64, deltas map[string]compare.StageDelta, stage string) Delta {
	sd, ok := deltas[stage]
	if !ok {
		sd = compare.StageDelta{Delta: model.Unknown, CILow: model.Unknown, CIHigh: model.Unknown}
	}
	return deltaOf(x, sd)
}

func deltaOf(x float64, s compare.StageDelta) Delta {
	return Delta{
		X: x, Value: s.Delta.F(), Low: s.CILow.F(), High: s.CIHigh.F(),
		Significant: s.Significant, Better: s.Better, Worse: s.Worse, Of: s,
	}
}

// named is d with its readout's name.
func named(d Delta, name string) Delta {
	d.Name = name
	return d
}

// barsOf are the bars of a chart of items, for its readout.
func barsOf(items []Delta, width float64) BarsAt {
	bars := make(BarsAt, len(items))
	for i, it := range items {
		bars[i] = Bar{Name: it.Name, Delta: it.Of, X: it.X, Width: width}
	}
	return bars
}

// deltaPlot is the common frame of StageDeltas and BucketDeltas.
func deltaPlot(title, xLabel string, items []Delta, width float64, ticks []plot.Tick, xmin, xmax float64, rec compare.Record) (*plot.Plot, BarsAt, error) {
	d, err := NewDeltas(items)
	if err != nil {
		return nil, nil, err
	}
	d.Width = width
	p := newPlot(title, xLabel, DeltaYLabel)
	p.Add(zeroLine{draw.LineStyle{Color: InkColor, Width: vg.Points(1)}}, d)
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Tick.Length = 0
	p.X.Min, p.X.Max = xmin, xmax
	// A little room beyond the bars (the legend is below the axes).
	span := p.Y.Max - p.Y.Min
	if span == 0 {
		span = 1
	}
	p.Y.Max += 0.05 * span
	p.Y.Min -= 0.05 * span
	lg := legend{p: p}
	lg.add("better (significant)", boxThumb{fill: d.Better, outline: d.Outline})
	lg.add("worse (significant)", boxThumb{fill: d.Worse, outline: d.Outline})
	lg.add("~ no significant change", boxThumb{fill: d.Neutral, outline: d.Outline})
	ci := "interval"
	if c := rec.Settings.Confidence; c > 0 && c < 1 {
		ci = fmt.Sprintf("%g%% interval", 100*c)
	}
	lg.add(ci, whiskerThumb{d.Whisker})
	lg.done()
	return p, barsOf(items, width), nil
}

// whiskerThumb is a vertical whisker legend icon.
type whiskerThumb struct{ style draw.LineStyle }

func (t whiskerThumb) Thumbnail(c *draw.Canvas) {
	x := c.Center().X
	lo, hi := c.Min.Y+1, c.Max.Y-1
	c.StrokeLine2(t.style, x, lo, x, hi)
	c.StrokeLine2(t.style, x-4, lo, x+4, lo)
	c.StrokeLine2(t.style, x-4, hi, x+4, hi)
}

// StageDeltas draws rec.Perf: per stage metric (model.StageMetrics, those present) the change vs baseline in % as a bar filled by outcome, its
// interval as a whisker, the value written beyond it, and a zero line. It is an error when
// rec.Perf holds none of them. The bars read out their stage's change.
func StageDeltas(title string, rec compare.Record) (*plot.Plot, BarsAt, error) {
	var items []Delta
	var ticks []plot.Tick
	for _, m := range model.StageMetrics {
		sd, ok := rec.Perf[m.Key]
		if !ok {
			continue
		}
		x := float64(len(items))
		items = append(items, named(deltaOf(x, sd), m.Short))
		ticks = append(ticks, plot.Tick{Value: x, Label: m.Tick})
	}
	if len(items) == 0 {
		return nil, nil, errors.New("chart: the record compares no stage")
	}
	return deltaPlot(title, "stage (latencies: lower is better)", items, 0.55, ticks, -0.6, float64(len(items))-0.4, rec)
}

// BucketDeltas draws rec.Buckets.Rows: per input-length bucket (short, long, mixed; the
// buckets' token edges under the stage names) and stage (model.BucketMetrics) the change vs
// baseline in %, as StageDeltas does. It is an error when the record has no buckets (no
// per-request input lengths).
func BucketDeltas(title string, rec compare.Record) (*plot.Plot, BarsAt, error) {
	rows := orderedRows(rec.Buckets.Rows)
	if len(rows) == 0 {
		return nil, nil, errors.New("chart: the record has no load buckets (no per-request input lengths)")
	}
	stages := model.BucketMetrics()
	n := len(stages)
	step, width := 0.28*groupScale(n, 3), 0.24*groupScale(n, 3)
	var items []Delta
	var ticks []plot.Tick
	for g, row := range rows {
		for k, s := range stages {
			x := float64(g) + (float64(k)-float64(n-1)/2)*step
			items = append(items, named(deltaIn(x, row.Stages, s.Key), s.Short+" · "+bucketName(row.Bucket, rec.Buckets)))
			// Every label has two lines, so the stage names line up.
			label := s.Short + "\n "
			if k == (n-1)/2 {
				label = s.Short + "\n" + bucketName(row.Bucket, rec.Buckets)
			}
			ticks = append(ticks, plot.Tick{Value: x, Label: label})
		}
	}
	half := float64(n) / 2 * step
	return deltaPlot(title, "input-length bucket (prompt tokens) and stage", items, width, ticks, -half-0.1, float64(len(rows)-1)+half+0.1, rec)
}

// orderedRows puts the buckets in the order short, long, mixed, then any other.
func orderedRows(rows []compare.BucketResult) []compare.BucketResult {
	rank := map[string]int{"short": 0, "long": 1, "mixed": 2}
	out := make([]compare.BucketResult, 0, len(rows))
	for r := range 4 {
		for _, row := range rows {
			k, ok := rank[row.Bucket]
			if (ok && k == r) || (!ok && r == 3) {
				out = append(out, row)
			}
		}
	}
	return out
}

// bucketName names a bucket with its token edges.
func bucketName(b string, bk compare.Buckets) string {
	tok := func(v float64) string { return fmt.Sprintf("%.0f", v) }
	if len(bk.Edges) >= 2 {
		switch {
		case bk.OneLength:
			return fmt.Sprintf("%s (all %s tokens)", b, tok(bk.Edges[0]))
		case b == "short":
			return fmt.Sprintf("short (\u2264 %s tokens)", tok(bk.Edges[0]))
		case b == "long":
			return fmt.Sprintf("long (> %s tokens)", tok(bk.Edges[1]))
		}
	}
	if b == "mixed" {
		return "mixed (all requests)"
	}
	return strings.TrimSpace(b)
}
