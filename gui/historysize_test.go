package gui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
)

// reach is how far right the chart's drawing goes: its dots, lines and texts.
func reach(objs []fyne.CanvasObject) float32 {
	var right float32
	for _, o := range objs {
		switch v := o.(type) {
		case *canvas.Line:
			right = max(right, v.Position1.X, v.Position2.X)
		case *canvas.Text:
			right = max(right, v.Position().X+v.MinSize().Width)
		default:
			right = max(right, o.Position().X+o.Size().Width)
		}
	}
	return right
}

// The History view's chart is drawn at the size of its space, not a fixed 520×300: it reaches
// across what the window gives it, and further when the window grows.
func TestHistoryChartFillsItsSpace(t *testing.T) {
	u := historyApp(t)
	v := u.history
	var first float32
	eventually(t, "the chart across its space", func() bool {
		space := v.chart.Size()
		first = reach(v.chart.Objects)
		return space.Width > 560 && first > space.Width-40 && first <= space.Width+1
	})
	ui(func() { u.win.Resize(fyne.NewSize(1900, 1060)) })
	eventually(t, "the chart wider with the window", func() bool {
		return reach(v.chart.Objects) > first+300 && v.chart.Size().Height > 400
	})
	// A click opens it large, drawn as the export draws it.
	ui(func() {
		area, ok := find(v.content, func(*tapArea) bool { return true })
		if !ok {
			t.Fatal("the chart takes no click")
		}
		area.Tapped(&fyne.PointEvent{})
	})
	eventually(t, "the series chart open large", func() bool {
		return u.popped != nil && u.popped.img.Image != nil && u.popped.img.Image.Bounds().Dx() > 1000 && shownText(u, "Reset zoom")
	})
}
