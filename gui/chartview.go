package gui

import (
	"image"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"
)

// chartView shows a chart rendered off-screen (gonum/plot in analysis/chart) at the size the
// layout gives it. A resize renders again off the UI thread after a short pause; the old image
// stays until the new one is ready, so nothing flickers.
type chartView struct {
	widget.BaseWidget
	img    *canvas.Image
	render func(w, h int) (image.Image, error)

	mu       sync.Mutex
	rendered fyne.Size
	timer    *time.Timer
	gen      int
}

func newChartView(render func(w, h int) (image.Image, error)) *chartView {
	c := &chartView{img: canvas.NewImageFromImage(nil), render: render}
	c.img.FillMode = canvas.ImageFillContain
	c.img.ScaleMode = canvas.ImageScaleSmooth
	c.ExtendBaseWidget(c)
	return c
}

func (c *chartView) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(c.img) }

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
	c.render = nil
	c.gen++
	c.mu.Unlock()
	c.img.Image = nil
	c.img.Refresh()
}

func (c *chartView) schedule(s fyne.Size, force bool) {
	if s.Width < 10 || s.Height < 10 {
		return
	}
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
	c.timer = time.AfterFunc(delay, func() { c.draw(s, gen) })
}

func (c *chartView) draw(s fyne.Size, gen int) {
	c.mu.Lock()
	render := c.render
	c.mu.Unlock()
	if render == nil {
		return
	}
	scale := float32(1)
	if d := fyne.CurrentApp(); d != nil {
		if cnv := fyne.CurrentApp().Driver().CanvasForObject(c); cnv != nil {
			scale = cnv.Scale()
		}
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
