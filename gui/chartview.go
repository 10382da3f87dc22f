package gui

import (
	"fmt"
	"image"
	"image/color"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"gonum.org/v1/plot"

	"benchlens/analysis/chart"
)

// chartView shows a chart rendered off-screen (gonum/plot in analysis/chart) at the size the
// layout gives it. A resize renders again off the UI thread after a short pause; the old image
// stays until the new one is ready, so nothing flickers. A chart given its plot (setPlot)
// reads out the axes' values under the mouse.
type chartView struct {
	widget.BaseWidget
	img     *canvas.Image
	render  func(w, h int) (image.Image, error)
	plot    *plot.Plot     // for readouts; nil without
	at      chart.SeriesAt // what each series reads at an x; nil: the axes' values only
	readout *canvas.Text
	readBox *fyne.Container
	overlay *fyne.Container // lays the readout over the image

	mu       sync.Mutex
	rendered fyne.Size
	timer    *time.Timer
	gen      int
}

func newChartView(render func(w, h int) (image.Image, error)) *chartView {
	c := &chartView{img: canvas.NewImageFromImage(nil), render: render}
	c.img.FillMode = canvas.ImageFillContain
	c.img.ScaleMode = canvas.ImageScaleSmooth
	c.readout = canvas.NewText("", color.White)
	c.readout.TextSize = theme.CaptionTextSize()
	bg := canvas.NewRectangle(color.NRGBA{R: 0x30, G: 0x30, B: 0x30, A: 0xe8}) // dark on the white chart
	c.readBox = container.NewStack(bg, container.NewPadded(c.readout))
	c.readBox.Hide()
	c.overlay = container.NewVBox(container.NewHBox(c.readBox, layout.NewSpacer()))
	c.ExtendBaseWidget(c)
	return c
}

func (c *chartView) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewStack(c.img, c.overlay))
}

// setPlot shows p and reads out its values under the mouse: the series' values at the
// mouse's x when at is given, else the axes' values.
func (c *chartView) setPlot(p *plot.Plot, at chart.SeriesAt) {
	c.mu.Lock()
	c.plot, c.at = p, at
	c.mu.Unlock()
	c.setRender(func(w, h int) (image.Image, error) {
		if p == nil {
			return nil, nil
		}
		return chart.Image(p, w, h)
	})
}

// MouseIn, MouseMoved and MouseOut make the chart a desktop.Hoverable: the readout follows the
// mouse over the data area, in the axes' own units.
func (c *chartView) MouseIn(e *desktop.MouseEvent) { c.MouseMoved(e) }

func (c *chartView) MouseMoved(e *desktop.MouseEvent) {
	c.mu.Lock()
	p, at, size := c.plot, c.at, c.rendered
	c.mu.Unlock()
	scale := c.scale() // the image has the widget's size in pixels
	text := readoutText(p, at, fyne.NewSize(size.Width*scale, size.Height*scale), fyne.NewPos(e.Position.X*scale, e.Position.Y*scale))
	if text == "" {
		c.readBox.Hide()
		return
	}
	c.readout.Text = text
	c.readout.Refresh()
	c.readBox.Show()
	c.overlay.Refresh() // lay the box out at the text's size
}

func (c *chartView) MouseOut() { c.readBox.Hide() }

// readoutText is what lies under pos on a chart drawn at size: with at, the x value and each
// series' value there (a CDF's quantiles: "12.3 ms · baseline p62 · candidate p71"; a
// timeline's busy: "… (s) 41 · device 0 83% busy"), else "x-axis label: x · y-axis label: y".
func readoutText(p *plot.Plot, at chart.SeriesAt, size fyne.Size, pos fyne.Position) string {
	if p == nil || size.Width < 10 || size.Height < 10 {
		return ""
	}
	x, y, ok := chart.Readout(p, int(size.Width), int(size.Height), float64(pos.X), float64(pos.Y))
	if !ok {
		return ""
	}
	if at != nil {
		axis, _, _ := strings.Cut(p.X.Label.Text, " · ") // without the clipping note
		s := axis + " " + plain(x)
		for _, sv := range at(x) {
			s += " · " + sv.Label + " " + sv.Text
		}
		return s
	}
	return fmt.Sprintf("%s: %s · %s: %s", p.X.Label.Text, plain(x), p.Y.Label.Text, plain(y))
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
	c.readBox.Hide()
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
