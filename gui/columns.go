package gui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
)

// columns lays cells out row by row in n columns, each as wide as its widest cell and each
// row as high as its highest, like a table that never wraps its cells.
type columns struct{ n int }

func (c *columns) sizes(objs []fyne.CanvasObject) (widths, heights []float32) {
	widths = make([]float32, c.n)
	heights = make([]float32, (len(objs)+c.n-1)/c.n)
	for i, o := range objs {
		m := o.MinSize()
		widths[i%c.n] = max(widths[i%c.n], m.Width)
		heights[i/c.n] = max(heights[i/c.n], m.Height)
	}
	return widths, heights
}

func (c *columns) Layout(objs []fyne.CanvasObject, _ fyne.Size) {
	widths, heights := c.sizes(objs)
	var y float32
	for row, h := range heights {
		var x float32
		for col, w := range widths {
			if i := row*c.n + col; i < len(objs) {
				objs[i].Move(fyne.NewPos(x, y))
				objs[i].Resize(fyne.NewSize(w, h))
			}
			x += w
		}
		y += h
	}
}

func (c *columns) MinSize(objs []fyne.CanvasObject) fyne.Size {
	widths, heights := c.sizes(objs)
	var s fyne.Size
	for _, w := range widths {
		s.Width += w
	}
	for _, h := range heights {
		s.Height += h
	}
	return s
}

// vscroll scrolls content vertically without taking its minimum width: fyne's VScroll is as
// wide as its content, so wrapped text laid out for the first time (one long line) or a long
// error would widen the window for good. The content gets the scroll's width instead.
func vscroll(content fyne.CanvasObject) *container.Scroll {
	return container.NewVScroll(container.New(narrow{}, content))
}

// narrow reports at most narrowWidth as its minimum width.
type narrow struct{}

const narrowWidth = 280

func (narrow) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.Position{})
		o.Resize(size)
	}
}

func (narrow) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		m := o.MinSize()
		s = s.Max(fyne.NewSize(min(m.Width, narrowWidth), m.Height))
	}
	return s
}
