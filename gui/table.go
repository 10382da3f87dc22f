package gui

import (
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
)

// tableBuilder collects the rows of a table whose columns are as wide as their widest cell and
// which fits the width it is given: when the columns are wider than that, each row goes on in
// a second (third …) line, indented, with the header broken the same way, so every column
// stays readable on a laptop instead of being cut at the pane's edge. A row may instead span
// the table (a load point's title), its parts flowing onto more lines as needed.
type tableBuilder struct {
	n    int
	objs []fyne.CanvasObject
	rows []tableRow
}

type tableRow struct {
	len  int  // objects in the row
	span bool // a title across the table, not cells
}

func newTableBuilder(n int) *tableBuilder { return &tableBuilder{n: n} }

// row adds a row of cells; missing cells are left empty, extra ones dropped.
func (b *tableBuilder) row(cells ...fyne.CanvasObject) {
	for i := 0; i < b.n; i++ {
		if i < len(cells) {
			b.objs = append(b.objs, cells[i])
		} else {
			b.objs = append(b.objs, container.NewStack())
		}
	}
	b.rows = append(b.rows, tableRow{len: b.n})
}

// span adds a row across the table.
func (b *tableBuilder) span(parts ...fyne.CanvasObject) {
	b.objs = append(b.objs, parts...)
	b.rows = append(b.rows, tableRow{len: len(parts), span: true})
}

// build lays the rows out; page is the scroll the table is in (see pageScroll).
func (b *tableBuilder) build(page *container.Scroll) fyne.CanvasObject {
	t := &tableLayout{n: b.n, rows: b.rows}
	if page != nil { // a nil *Scroll in the interface is not a nil interface
		t.within = page
	}
	return newPageScroll(container.New(t, b.objs...), page)
}

// tableLayout lays a tableBuilder's rows out at the width it is given.
type tableLayout struct {
	n      int
	rows   []tableRow
	width  float32           // the width of the last layout
	inset  float32           // how much narrower than within the table was laid out
	within fyne.CanvasObject // the vertical scroll the table is in: its width is known first
}

// lineGap separates the rows of a wrapped table, so a row's lines read as one row.
func lineGap() float32 { return theme.Padding() * 2 }

// columnWidths are the widths of the cell columns.
func (t *tableLayout) columnWidths(objs []fyne.CanvasObject) []float32 {
	w := make([]float32, t.n)
	i := 0
	for _, r := range t.rows {
		if !r.span {
			for c := 0; c < r.len; c++ {
				w[c] = max(w[c], objs[i+c].MinSize().Width)
			}
		}
		i += r.len
	}
	return w
}

// breaks splits the columns into lines that fit width: each line is [from, to). The first
// line starts at 0, the others at indent, so a row's lines read as one row.
func (t *tableLayout) breaks(widths []float32, width float32) (lines [][2]int, indent float32) {
	indent = 4 * theme.Padding()
	from, x := 0, float32(0)
	for c, w := range widths {
		if c > from && x+w > width {
			lines = append(lines, [2]int{from, c})
			from, x = c, indent
		}
		x += w
	}
	return append(lines, [2]int{from, len(widths)}), indent
}

// flow places parts left to right, wrapping at width; it returns the height used.
func flow(parts []fyne.CanvasObject, origin fyne.Position, width float32, place bool) float32 {
	var x, y, lineH float32
	for _, p := range parts {
		m := p.MinSize()
		if x > 0 && x+m.Width > width {
			x, y, lineH = 0, y+lineH, 0
		}
		if place {
			p.Move(origin.AddXY(x, y))
			p.Resize(fyne.NewSize(min(m.Width, width), m.Height))
		}
		x += m.Width
		lineH = max(lineH, m.Height)
	}
	return y + lineH
}

// arrange places (or only measures) the rows at width and returns the height.
func (t *tableLayout) arrange(objs []fyne.CanvasObject, width float32, place bool) float32 {
	widths := t.columnWidths(objs)
	lines, indent := t.breaks(widths, width)
	gap := float32(0)
	if len(lines) > 1 {
		gap = lineGap()
	}
	var y float32
	i := 0
	for ri, r := range t.rows {
		if ri > 0 {
			y += gap
		}
		row := objs[i : i+r.len]
		i += r.len
		if r.span {
			y += flow(row, fyne.NewPos(0, y), width, place)
			continue
		}
		for li, l := range lines {
			x := float32(0)
			if li > 0 {
				x = indent
			}
			var h float32
			for c := l[0]; c < l[1]; c++ {
				h = max(h, row[c].MinSize().Height)
			}
			for c := l[0]; c < l[1]; c++ {
				if place {
					row[c].Move(fyne.NewPos(x, y))
					row[c].Resize(fyne.NewSize(widths[c], h))
				}
				x += widths[c]
			}
			y += h
		}
	}
	return y
}

func (t *tableLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	t.width = size.Width
	if t.within != nil && t.within.Size().Width > size.Width {
		t.inset = t.within.Size().Width - size.Width
	}
	t.arrange(objs, size.Width, true)
}

// MinSize is as wide as the widest column (the rest wraps) and as high as the rows are at
// the width the table gets: the scroll's width less what the table was inset by last time,
// known before the table's own layout, so a resize needs no second pass.
func (t *tableLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	widths := t.columnWidths(objs)
	var full, widest float32
	for _, w := range widths {
		full += w
		widest = max(widest, w)
	}
	width := t.width
	if t.within != nil && t.within.Size().Width > 0 {
		inset := t.inset
		if inset == 0 {
			inset = 4 * theme.Padding()
		}
		width = t.within.Size().Width - inset
	}
	if width <= 0 {
		width = full
	}
	width = max(width, widest)
	return fyne.NewSize(widest, t.arrange(objs, width, false))
}

// pageScroll scrolls a table sideways when even its wrapped rows are wider than the pane
// (its scroll bar shows there is more), while the mouse wheel scrolls the page it is on: a
// plain horizontal scroll under the pointer keeps the wheel to itself and the page stops.
type pageScroll struct {
	container.Scroll
	page *container.Scroll
}

func newPageScroll(content fyne.CanvasObject, page *container.Scroll) *pageScroll {
	s := &pageScroll{page: page}
	s.Direction = container.ScrollHorizontalOnly
	s.Content = content
	s.ExtendBaseWidget(s)
	return s
}

// Scrolled hands a vertical wheel to the page; a sideways one (or Shift+wheel) scrolls the
// table.
func (s *pageScroll) Scrolled(ev *fyne.ScrollEvent) {
	if s.page != nil && math.Abs(float64(ev.Scrolled.DY)) > math.Abs(float64(ev.Scrolled.DX)) {
		s.page.Scrolled(ev)
		return
	}
	s.Scroll.Scrolled(ev)
}
