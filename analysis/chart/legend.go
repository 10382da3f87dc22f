package chart

import (
	"image/color"
	"runtime"
	"slices"
	"sync"
	"weak"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// A chart's legend is drawn by this package, not by gonum/plot (which draws it inside the data
// area, over bars and curves): in a band below the axes, its entries side by side and wrapped
// into rows as the width allows. An entry naming a series can hide it (Hide), so the app can
// toggle a series by a click on its entry (LegendAt).

// legend collects a plot's legend entries while a chart is built; done attaches them.
type legend struct {
	p       *plot.Plot
	entries []legendEntry
}

type legendEntry struct {
	text   string
	thumbs []plot.Thumbnailer
	series bool // the entry names plotters that Hide can hide
}

// add is an entry that explains a mark (a bar's colour, a whisker) without naming a series.
func (l *legend) add(text string, thumbs ...plot.Thumbnailer) {
	l.entries = append(l.entries, legendEntry{text: unkern(text), thumbs: thumbs})
}

// series adds ps to the plot as one series the entry names: hiding the entry hides them all.
// thumb draws the entry's icon; nil takes the plotters that draw one.
func (l *legend) series(text string, thumb plot.Thumbnailer, ps ...plot.Plotter) {
	i := len(l.entries)
	var thumbs []plot.Thumbnailer
	if thumb != nil {
		thumbs = append(thumbs, thumb)
	}
	for _, p := range ps {
		if t, ok := p.(plot.Thumbnailer); ok && thumb == nil {
			thumbs = append(thumbs, t)
		}
		if _, ok := p.(plot.DataRanger); ok {
			l.p.Add(rangedSeries{hideable{p, i}})
		} else {
			l.p.Add(hideable{p, i})
		}
	}
	l.entries = append(l.entries, legendEntry{text: unkern(text), thumbs: thumbs, series: true})
}

// done attaches the entries to the plot, where drawOn finds them.
func (l *legend) done() { setExtra(l.p, &extra{entries: l.entries}) }

// extra is what a plot carries beyond gonum/plot's fields: its legend entries, which of them
// are hidden, and, while one rendering lasts, the labels already placed (claim).
type extra struct {
	entries []legendEntry
	hidden  map[int]bool
	placed  *[]vg.Rectangle
}

// extras maps a plot to its extra; an entry goes when its plot is collected.
var extras sync.Map // weak.Pointer[plot.Plot] → *extra

func setExtra(p *plot.Plot, e *extra) {
	k := weak.Make(p)
	if _, had := extras.Swap(k, e); !had {
		runtime.AddCleanup(p, func(k weak.Pointer[plot.Plot]) { extras.Delete(k) }, k)
	}
}

func extraOf(p *plot.Plot) *extra {
	if p == nil {
		return nil
	}
	if e, ok := extras.Load(weak.Make(p)); ok {
		return e.(*extra)
	}
	return nil
}

// hideable is a plotter of a legend entry's series, drawn unless the entry is hidden.
type hideable struct {
	plot.Plotter
	entry int
}

func (h hideable) hidden(p *plot.Plot) bool {
	e := extraOf(p)
	return e != nil && e.hidden[h.entry]
}

func (h hideable) Plot(c draw.Canvas, p *plot.Plot) {
	if !h.hidden(p) {
		h.Plotter.Plot(c, p)
	}
}

// GlyphBoxes passes on the plotter's, so the plot still makes room for its marks.
func (h hideable) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	if g, ok := h.Plotter.(plot.GlyphBoxer); ok && !h.hidden(p) {
		return g.GlyphBoxes(p)
	}
	return nil
}

// rangedSeries is a hideable whose plotter spans the axes: the axes keep the hidden series'
// range, so a toggle does not rescale the chart under the reader's eyes.
type rangedSeries struct{ hideable }

func (r rangedSeries) DataRange() (xmin, xmax, ymin, ymax float64) {
	return r.Plotter.(plot.DataRanger).DataRange()
}

// LegendEntry is one entry of a chart's legend as drawn: its text, whether it names a series
// that a click can hide, whether it is hidden, and its box in pixels from the image's top left.
type LegendEntry struct {
	Text           string
	Series, Hidden bool
	Box            Rect
}

// Rect is a rectangle in pixels from an image's top left.
type Rect struct{ X0, Y0, X1, Y1 float64 }

// Overlaps reports whether r and o share an area (more than a rounding error's).
func (r Rect) Overlaps(o Rect) bool {
	const e = 0.01
	return r.X0+e < o.X1 && o.X0+e < r.X1 && r.Y0+e < o.Y1 && o.Y0+e < r.Y1
}

// Within reports whether r lies inside o.
func (r Rect) Within(o Rect) bool {
	return r.X0 >= o.X0 && r.X1 <= o.X1 && r.Y0 >= o.Y0 && r.Y1 <= o.Y1
}

// Hide is a copy of p that draws without the series whose legend entries have these texts
// (and with them again when they are left out): the entries stay, greyed, to be clicked back.
// p itself is unchanged.
func Hide(p *plot.Plot, texts ...string) *plot.Plot {
	q := *p
	e := extraOf(p)
	if e == nil {
		return &q
	}
	hidden := map[int]bool{}
	for i, en := range e.entries {
		if en.series && slices.Contains(texts, en.text) {
			hidden[i] = true
		}
	}
	setExtra(&q, &extra{entries: e.entries, hidden: hidden})
	return &q
}

// LegendAt is the text of the legend entry naming a series under pixel (px, py) of p drawn at
// w×h, if any.
func LegendAt(p *plot.Plot, w, h int, px, py float64) (string, bool) {
	l, err := Layout(p, w, h)
	if err != nil {
		return "", false
	}
	for _, e := range l.Legend {
		if e.Series && px >= e.Box.X0 && px <= e.Box.X1 && py >= e.Box.Y0 && py <= e.Box.Y1 {
			return e.Text, true
		}
	}
	return "", false
}

// placedEntry is a legend entry placed on the canvas (vg units).
type placedEntry struct {
	legendEntry
	hidden bool
	style  text.Style
	thumb  vg.Rectangle // the icon's place
	at     vg.Point     // the text's start, on its baseline
	box    vg.Rectangle // icon and text
}

// Legend layout, in points at DPI: the icon's width, the gap from icon to text, between
// entries of a row, between rows, and above the band.
const (
	legendThumb  = 20
	legendToText = 4
	legendGap    = 12
	legendRowGap = 2
	legendAbove  = 6
)

// placeLegend lays p's entries out in rows across c's width, at its bottom, in the legend's
// font scaled by scale, and returns them with the height of the band they take.
func placeLegend(p *plot.Plot, c draw.Canvas, scale vg.Length) ([]placedEntry, vg.Length) {
	e := extraOf(p)
	if e == nil || len(e.entries) == 0 {
		return nil, 0
	}
	var rows [][]placedEntry
	var widths []vg.Length
	width := c.Max.X - c.Min.X
	var row []placedEntry
	var x, lineH vg.Length
	for i, en := range e.entries {
		sty := legendStyle(p, en.text)
		sty.Font.Size *= scale
		r := sty.Rectangle(en.text)
		lineH = max(lineH, r.Max.Y-r.Min.Y)
		w := vg.Points(legendThumb+legendToText) + r.Max.X - r.Min.X
		if len(row) > 0 && x+vg.Points(legendGap)+w > width {
			rows, widths = append(rows, row), append(widths, x)
			row, x = nil, 0
		}
		if len(row) > 0 {
			x += vg.Points(legendGap)
		}
		row = append(row, placedEntry{legendEntry: en, hidden: e.hidden[i], style: sty, box: vg.Rectangle{Min: vg.Point{X: x}, Max: vg.Point{X: x + w}}})
		x += w
	}
	rows, widths = append(rows, row), append(widths, x)
	var out []placedEntry
	y := c.Min.Y + vg.Length(len(rows)-1)*(lineH+vg.Points(legendRowGap))
	for k, row := range rows {
		left := c.Min.X + max(0, (width-widths[k])/2)
		for _, pe := range row {
			pe.box = vg.Rectangle{Min: vg.Point{X: left + pe.box.Min.X, Y: y}, Max: vg.Point{X: left + pe.box.Max.X, Y: y + lineH}}
			pe.thumb = vg.Rectangle{Min: pe.box.Min, Max: vg.Point{X: pe.box.Min.X + vg.Points(legendThumb), Y: y + lineH}}
			pe.at = vg.Point{X: pe.thumb.Max.X + vg.Points(legendToText), Y: y + pe.style.FontExtents().Descent}
			out = append(out, pe)
		}
		y -= lineH + vg.Points(legendRowGap)
	}
	band := vg.Length(len(rows))*lineH + vg.Length(len(rows)-1)*vg.Points(legendRowGap) + vg.Points(legendAbove)
	return out, band
}

// legendStyle is the legend's text style, in the wide font when text needs it ("设备 0").
func legendStyle(p *plot.Plot, txt string) text.Style {
	sty := p.Legend.TextStyle
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YBottom
	widen(&sty.Font, txt)
	return sty
}

// HiddenInk greys a hidden entry's text and veils its icon.
var HiddenInk color.Color = color.Gray{Y: 0xA0}

// drawLegend draws the placed entries: a hidden one greyed, its icon veiled.
func drawLegend(c draw.Canvas, entries []placedEntry) {
	for _, pe := range entries {
		icon := draw.Canvas{Canvas: c.Canvas, Rectangle: pe.thumb}
		for _, t := range pe.thumbs {
			t.Thumbnail(&icon)
		}
		sty := pe.style
		if pe.hidden {
			c.SetColor(color.NRGBA{R: 0xFF, G: 0xFF, B: 0xFF, A: 0xC8})
			c.Fill(pe.thumb.Path())
			sty.Color = HiddenInk
		}
		c.FillText(sty, pe.at, pe.text)
		if pe.hidden { // struck through, so the state reads without colour too
			mid := (pe.box.Min.Y + pe.box.Max.Y) / 2
			c.StrokeLine2(draw.LineStyle{Color: HiddenInk, Width: vg.Points(0.8)}, pe.at.X, mid, pe.box.Max.X, mid)
		}
	}
}

// claim reserves r for a label drawn in the data area of p (as drawn): false when a label
// placed before overlaps it, and the caller leaves its label out rather than print over one.
func claim(p *plot.Plot, r vg.Rectangle) bool {
	e := extraOf(p)
	if e == nil || e.placed == nil {
		return true
	}
	for _, o := range *e.placed {
		if r.Min.X < o.Max.X && o.Min.X < r.Max.X && r.Min.Y < o.Max.Y && o.Min.Y < r.Max.Y {
			return false
		}
	}
	*e.placed = append(*e.placed, r)
	return true
}
