package gui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
)

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
