package gui

import (
	"fmt"
	"image"
	"image/color"
	"slices"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"gonum.org/v1/plot"

	"benchlens/analysis/chart"
	"benchlens/analysis/report"
	"benchlens/model"
)

// chartView shows a chart rendered off-screen (gonum/plot in analysis/chart) at the size the
// layout gives it. A resize renders again off the UI thread after a short pause; the old image
// stays until the new one is ready, so nothing flickers. A chart given its plot (setPlot)
// reads out what lies under the mouse: each curve's value at the x (its point marked on the
// curve), the bar's change with its interval and p, else the axes' values. The readout sits
// beside the pointer inside the data area, never over the title. A click on a legend entry
// hides its series (and shows it again); a click elsewhere opens the chart large (popChart),
// and the right button offers to open, save or copy it.
type chartView struct {
	widget.BaseWidget
	img     *canvas.Image
	render  func(w, h int) (image.Image, error)
	plot    *plot.Plot   // as built, for readouts; nil without
	read    chart.Reader // what the chart reads at the pointer
	u       *App         // opens, saves and copies the chart; nil: a plain image
	name    string       // the chart's key, in file names ("ttft_cdf")
	hidden  []string     // the legend entries of the series hidden
	zoom    *[4]float64  // the axes shown (x0, x1, y0, y1) in the pop-out; nil: the plot's
	readout *canvas.Text
	readBox *fyne.Container
	marks   []*canvas.Circle // each curve's point under the pointer
	overlay *fyne.Container  // lays the readout and the marks over the image

	mu       sync.Mutex
	rendered fyne.Size
	timer    *time.Timer
	gen      int
}

// markRadius is the radius of a curve's mark under the pointer.
const markRadius = 4

func newChartView(render func(w, h int) (image.Image, error)) *chartView {
	c := makeChartView(render)
	c.ExtendBaseWidget(c)
	return c
}

// makeChartView is a chartView not yet extended, for a widget that embeds one (zoomChart).
func makeChartView(render func(w, h int) (image.Image, error)) *chartView {
	c := &chartView{img: canvas.NewImageFromImage(nil), render: render}
	c.img.FillMode = canvas.ImageFillContain
	c.img.ScaleMode = canvas.ImageScaleSmooth
	c.readout = canvas.NewText("", color.White)
	c.readout.TextSize = theme.CaptionTextSize()
	bg := canvas.NewRectangle(color.NRGBA{R: 0x30, G: 0x30, B: 0x30, A: 0xe8}) // dark on the white chart
	c.readBox = container.NewStack(bg, container.NewPadded(c.readout))
	c.readBox.Hide()
	c.overlay = container.NewWithoutLayout(c.readBox)
	return c
}

func (c *chartView) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewStack(c.img, c.overlay))
}

// setPlot shows p, every series shown, and reads it out under the mouse with r.
func (c *chartView) setPlot(p *plot.Plot, r chart.Reader) {
	c.mu.Lock()
	c.plot, c.read, c.hidden = p, r, nil
	c.mu.Unlock()
	c.redraw()
}

// shown is the plot as drawn: without the hidden series, on the zoomed axes; nil without.
func (c *chartView) shown() *plot.Plot {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.shownLocked()
}

func (c *chartView) shownLocked() *plot.Plot {
	p := c.plot
	if p == nil {
		return nil
	}
	if len(c.hidden) > 0 {
		p = chart.Hide(p, c.hidden...)
	}
	if z := c.zoom; z != nil && *z != [4]float64{p.X.Min, p.X.Max, p.Y.Min, p.Y.Max} {
		p = chart.Zoom(p, z[0], z[1], z[2], z[3])
	}
	return p
}

// redraw renders the plot as now shown.
func (c *chartView) redraw() {
	p := c.shown()
	c.hideReadout()
	c.setRender(func(w, h int) (image.Image, error) {
		if p == nil {
			return nil, nil
		}
		return chart.Image(p, w, h)
	})
}

// toggle hides the series of a legend entry, or shows it again.
func (c *chartView) toggle(entry string) {
	c.mu.Lock()
	if i := slices.Index(c.hidden, entry); i >= 0 {
		c.hidden = slices.Delete(c.hidden, i, i+1)
	} else {
		c.hidden = append(c.hidden, entry)
	}
	c.mu.Unlock()
	c.redraw()
}

// pixels is a point of the widget in pixels of its image, and the image's size.
func (c *chartView) pixels(pos fyne.Position) (fyne.Position, fyne.Size) {
	c.mu.Lock()
	size := c.rendered
	c.mu.Unlock()
	scale := c.scale()
	return fyne.NewPos(pos.X*scale, pos.Y*scale), fyne.NewSize(size.Width*scale, size.Height*scale)
}

// Tapped hides or shows the series of the legend entry under the pointer; elsewhere it opens
// the chart large.
func (c *chartView) Tapped(e *fyne.PointEvent) {
	p := c.shown()
	if p == nil {
		return
	}
	at, px := c.pixels(e.Position)
	if entry, ok := chart.LegendAt(p, int(px.Width), int(px.Height), float64(at.X), float64(at.Y)); ok {
		c.toggle(entry)
		return
	}
	if c.u != nil && c.zoom == nil {
		c.u.popChart(c)
	}
}

// TappedSecondary offers the chart's actions.
func (c *chartView) TappedSecondary(e *fyne.PointEvent) {
	if c.u == nil || c.shown() == nil {
		return
	}
	cnv := fyne.CurrentApp().Driver().CanvasForObject(c)
	if cnv == nil {
		return
	}
	widget.ShowPopUpMenuAtPosition(fyne.NewMenu("", c.u.chartActions(c)...), cnv, e.AbsolutePosition)
}

// MouseIn, MouseMoved and MouseOut make the chart a desktop.Hoverable: the readout follows the
// mouse over the data area.
func (c *chartView) MouseIn(e *desktop.MouseEvent) { c.MouseMoved(e) }

func (c *chartView) MouseMoved(e *desktop.MouseEvent) {
	c.mu.Lock()
	p, r, hidden := c.shownLocked(), c.read, slices.Clone(c.hidden)
	c.mu.Unlock()
	scale := c.scale() // the image has the widget's size in pixels
	pos, px := c.pixels(e.Position)
	at := readoutAt(p, r, hidden, px, pos)
	if at.text == "" {
		c.hideReadout()
		return
	}
	c.readout.Text = at.text
	c.readout.Refresh()
	for len(c.marks) < len(at.marks) {
		m := canvas.NewCircle(color.Transparent)
		m.StrokeWidth = 2
		c.marks = append(c.marks, m)
		c.overlay.Objects = append([]fyne.CanvasObject{m}, c.overlay.Objects...) // under the readout
	}
	for i, m := range c.marks {
		if i >= len(at.marks) {
			m.Hide()
			continue
		}
		mk := at.marks[i]
		m.StrokeColor = mk.col
		m.FillColor = color.White
		m.Move(fyne.NewPos(mk.pos.X/scale-markRadius, mk.pos.Y/scale-markRadius))
		m.Resize(fyne.NewSize(2*markRadius, 2*markRadius))
		m.Show()
		m.Refresh()
	}
	box := c.readBox.MinSize()
	c.readBox.Resize(box)
	c.readBox.Move(readoutPlace(e.Position, box, c.Size(), at.top/scale))
	c.readBox.Show()
	c.overlay.Refresh()
}

func (c *chartView) MouseOut() { c.hideReadout() }

func (c *chartView) hideReadout() {
	c.readBox.Hide()
	for _, m := range c.marks {
		m.Hide()
	}
}

// readoutPlace puts a readout of size box beside the pointer at pos in a chart of size
// chartSize: below and right of it, else left or above where it would leave the chart, never
// above the data area's top (where the title is).
func readoutPlace(pos fyne.Position, box, chartSize fyne.Size, top float32) fyne.Position {
	const gap = 14
	x, y := pos.X+gap, pos.Y+gap
	if x+box.Width > chartSize.Width {
		x = pos.X - gap - box.Width
	}
	if y+box.Height > chartSize.Height {
		y = pos.Y - gap - box.Height
	}
	return fyne.NewPos(max(x, 0), max(y, top))
}

// reading is what a readout shows at a point: its text, each curve's point to mark there (in
// pixels of the drawn image) and the top of the data area.
type reading struct {
	text  string
	marks []mark
	top   float32
}

type mark struct {
	pos fyne.Position
	col color.Color
}

// readoutAt is what lies under pos on a chart drawn at size: with curves, the x value and each
// series' value there (a CDF's quantiles: "12.3 ms · baseline p62 · candidate p71"; a
// timeline's busy: "… (s) 41 · device 0 83% busy"), each marked on its curve; with bars, the
// bar's change ("TPOT +4.3 % [+2.7, +6.1], p=0.008"); else "x-axis label: x · y-axis label: y".
//
// The series of hidden legend entries are not read out.
func readoutAt(p *plot.Plot, r chart.Reader, hidden []string, size fyne.Size, pos fyne.Position) reading {
	if p == nil || size.Width < 10 || size.Height < 10 {
		return reading{}
	}
	w, h := int(size.Width), int(size.Height)
	x, y, ok := chart.Readout(p, w, h, float64(pos.X), float64(pos.Y))
	if !ok {
		return reading{}
	}
	top, _ := chart.DataTop(p, w, h)
	out := reading{top: float32(top)}
	switch {
	case r.Series != nil:
		axis, _, _ := strings.Cut(p.X.Label.Text, " · ") // without the clipping note
		out.text = axis + " " + model.Plain(x)
		for _, sv := range r.Series(x) {
			if slices.ContainsFunc(hidden, func(h string) bool { return entryNames(h, sv.Label) }) {
				continue
			}
			out.text += " · " + sv.Label + " " + sv.Text
			if mx, my, ok := chart.Pixel(p, w, h, x, sv.Y); ok {
				col := sv.Color
				if col == nil {
					col = chart.InkColor
				}
				out.marks = append(out.marks, mark{fyne.NewPos(float32(mx), float32(my)), col})
			}
		}
	case r.Bars != nil:
		if b, ok := r.Bars.At(x); ok {
			out.text = report.BarText(b.Name, b.Delta)
		}
	default:
		out.text = fmt.Sprintf("%s: %s · %s: %s", p.X.Label.Text, model.Plain(x), p.Y.Label.Text, model.Plain(y))
	}
	return out
}

// entryNames reports whether a legend entry's text names the series labelled label (its
// label alone or followed by what the legend adds: "baseline: median 58.0 ms, n = 590").
func entryNames(entry, label string) bool {
	entry = strings.ReplaceAll(entry, "\u200b", "") // the legend unkerns "11"
	return entry == label || strings.HasPrefix(entry, label+":") || strings.HasPrefix(entry, label+" ") || strings.HasPrefix(entry, label+",")
}

// MinSize keeps charts readable and still fits a 1024×700 window.
func (c *chartView) MinSize() fyne.Size { return fyne.NewSize(320, 210) }

func (c *chartView) Resize(s fyne.Size) {
	c.BaseWidget.Resize(s)
	c.schedule(s, false)
}

// setRender replaces what the chart draws and renders it now.
func (c *chartView) setRender(render func(w, h int) (image.Image, error)) {
	c.mu.Lock()
	c.render = render
	c.mu.Unlock()
	c.schedule(c.Size(), true)
}

// clear blanks the chart until the next setRender.
func (c *chartView) clear() {
	c.mu.Lock()
	c.render, c.plot = nil, nil
	c.gen++
	c.mu.Unlock()
	c.hideReadout()
	c.img.Image = nil
	c.img.Refresh()
}

func (c *chartView) schedule(s fyne.Size, force bool) {
	if s.Width < 10 || s.Height < 10 {
		return
	}
	scale := c.scale()
	c.mu.Lock()
	defer c.mu.Unlock()
	if !force && abs32(s.Width-c.rendered.Width) < 4 && abs32(s.Height-c.rendered.Height) < 4 {
		return
	}
	c.rendered = s
	c.gen++
	gen := c.gen
	if c.timer != nil {
		c.timer.Stop()
	}
	delay := 120 * time.Millisecond
	if force {
		delay = 0
	}
	c.timer = time.AfterFunc(delay, func() { c.draw(s, scale, gen) })
}

// scale is the pixels per unit of the chart's canvas. It is read on the UI thread (layout,
// mouse events), where the canvas lives; the render off the UI thread is handed it.
func (c *chartView) scale() float32 {
	if a := fyne.CurrentApp(); a != nil {
		if cnv := a.Driver().CanvasForObject(c); cnv != nil {
			return cnv.Scale()
		}
	}
	return 1
}

// draw renders at size s × scale off the UI thread and shows the image unless a newer
// schedule or a clear came in between.
func (c *chartView) draw(s fyne.Size, scale float32, gen int) {
	c.mu.Lock()
	render := c.render
	c.mu.Unlock()
	if render == nil {
		return
	}
	img, err := render(int(s.Width*scale), int(s.Height*scale))
	if err != nil {
		img = nil
	}
	onUI(func() {
		c.mu.Lock()
		current := gen == c.gen
		c.mu.Unlock()
		if current {
			c.img.Image = img
			c.img.Refresh()
		}
	})
}

func abs32(f float32) float32 {
	if f < 0 {
		return -f
	}
	return f
}
