package gui

import "fyne.io/fyne/v2"

// chartGrid lays charts out in as many columns as fit chartMinWidth, each as wide as its
// share of the width and chartAspect as high, so charts grow with the window. Its minimum
// height follows the width of the scroll it fills, read when the scroll lays it out, so a
// resize needs no second pass (and a layout starts no work of its own).
type chartGrid struct {
	width  float32           // the width of the last layout
	within fyne.CanvasObject // the vertical scroll the grid is the content of
}

const (
	chartMinWidth  = 420
	chartAspect    = 0.62
	chartMinHeight = 250 // a chart's title, axes and legend leave its data room (chart.Layout)
)

func (g *chartGrid) cells(n int, width float32) (cols int, cell fyne.Size) {
	cols = max(1, int(width/chartMinWidth))
	cols = min(cols, max(n, 1))
	w := width / float32(cols)
	return cols, fyne.NewSize(w, max(w*chartAspect, chartMinHeight))
}

func (g *chartGrid) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	g.width = size.Width
	cols, cell := g.cells(len(visible(objs)), size.Width)
	i := 0
	for _, o := range visible(objs) {
		o.Move(fyne.NewPos(float32(i%cols)*cell.Width, float32(i/cols)*cell.Height))
		o.Resize(cell)
		i++
	}
}

func (g *chartGrid) MinSize(objs []fyne.CanvasObject) fyne.Size {
	n := len(visible(objs))
	if n == 0 {
		return fyne.Size{}
	}
	width := g.width
	if g.within != nil && g.within.Size().Width > 0 {
		width = g.within.Size().Width
	}
	width = max(width, 320)
	cols, cell := g.cells(n, width)
	rows := (n + cols - 1) / cols
	return fyne.NewSize(320, float32(rows)*cell.Height)
}

func visible(objs []fyne.CanvasObject) []fyne.CanvasObject {
	out := objs[:0:0]
	for _, o := range objs {
		if o.Visible() {
			out = append(out, o)
		}
	}
	return out
}
