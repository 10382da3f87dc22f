package gui

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"
	"gonum.org/v1/plot"

	"benchlens/analysis/chart"
	"benchlens/library"
)

// A chart opens large in a dialog filling the window (a click on it, or "Open large" from its
// menu): the mouse wheel and + / − zoom at the pointer, a drag pans, 0 resets, and the
// readout, the legend's toggles, "Save chart…" and "Copy image" work there as on the chart in
// place. Escape closes it, as every dialog.

// zoomChart is the chart of the pop-out: a chartView whose axes zoom and pan.
type zoomChart struct {
	*chartView
	home [4]float64 // the plot's own axes, to reset to
}

// wheelNotch is the scroll of one notch of a mouse wheel (Fyne's scroll speed on Linux and
// Windows); a notch zooms by zoomStep.
const (
	wheelNotch = 25
	zoomStep   = 0.8
)

func newZoomChart(from *chartView) *zoomChart {
	c := makeChartView(nil)
	from.mu.Lock()
	p := from.plot
	c.plot, c.read, c.hidden = p, from.read, slices.Clone(from.hidden)
	from.mu.Unlock()
	c.u, c.name = from.u, from.name
	z := &zoomChart{chartView: c, home: [4]float64{p.X.Min, p.X.Max, p.Y.Min, p.Y.Max}}
	home := z.home
	c.zoom = &home
	z.ExtendBaseWidget(z)
	c.redraw()
	return z
}

// Scrolled zooms at the pointer: in when the wheel turns away from the reader.
func (z *zoomChart) Scrolled(e *fyne.ScrollEvent) {
	z.zoomAt(e.Position, math.Pow(zoomStep, float64(e.Scrolled.DY)/wheelNotch))
}

// Dragged pans: the data follow the pointer.
func (z *zoomChart) Dragged(e *fyne.DragEvent) {
	p := z.shown()
	if p == nil {
		return
	}
	_, px := z.pixels(e.Position)
	l, err := chart.Layout(p, int(px.Width), int(px.Height))
	if err != nil || l.Data.X1 <= l.Data.X0 || l.Data.Y1 <= l.Data.Y0 {
		return
	}
	scale := float64(z.scale())
	fx := -float64(e.Dragged.DX) * scale / (l.Data.X1 - l.Data.X0)
	fy := float64(e.Dragged.DY) * scale / (l.Data.Y1 - l.Data.Y0)
	z.mu.Lock()
	zm := *z.zoom
	x0, x1 := z.toAxis(zm[0]), z.toAxis(zm[1])
	dx, dy := fx*(x1-x0), fy*(zm[3]-zm[2])
	*z.zoom = [4]float64{z.fromAxis(x0 + dx), z.fromAxis(x1 + dx), zm[2] + dy, zm[3] + dy}
	z.mu.Unlock()
	z.redraw()
}

func (z *zoomChart) DragEnd() {}

// zoomAt scales the axes by f (below 1: in) around the data point under pos, or around the
// middle when pos is not over the data.
func (z *zoomChart) zoomAt(pos fyne.Position, f float64) {
	p := z.shown()
	if p == nil || f <= 0 {
		return
	}
	at, px := z.pixels(pos)
	z.mu.Lock()
	defer func() { z.mu.Unlock(); z.redraw() }()
	zm := *z.zoom
	x0, x1 := z.toAxis(zm[0]), z.toAxis(zm[1])
	cx, cy := (x0+x1)/2, (zm[2]+zm[3])/2
	if x, y, ok := chart.Readout(p, int(px.Width), int(px.Height), float64(at.X), float64(at.Y)); ok {
		cx, cy = z.toAxis(x), y
	}
	*z.zoom = [4]float64{z.fromAxis(cx - (cx-x0)*f), z.fromAxis(cx + (x1-cx)*f), cy - (cy-zm[2])*f, cy + (zm[3]-cy)*f}
}

// reset shows the plot's own axes again.
func (z *zoomChart) reset() {
	z.mu.Lock()
	*z.zoom = z.home
	z.mu.Unlock()
	z.redraw()
}

// toAxis and fromAxis map x to where it lies along the axis (its log on a log axis), where
// zooming and panning are even.
func (z *zoomChart) toAxis(x float64) float64 {
	if z.logX() {
		return math.Log(x)
	}
	return x
}

func (z *zoomChart) fromAxis(v float64) float64 {
	if z.logX() {
		return math.Exp(v)
	}
	return v
}

func (z *zoomChart) logX() bool {
	_, ok := z.plot.X.Scale.(plot.LogScale)
	return ok
}

// typedKey zooms with + and −, resets with 0; it reports whether it took the key.
func (z *zoomChart) typedKey(k fyne.KeyName) bool {
	mid := fyne.NewPos(z.Size().Width/2, z.Size().Height/2)
	switch k {
	case fyne.KeyPlus, fyne.KeyEqual:
		z.zoomAt(mid, zoomStep)
	case fyne.KeyMinus:
		z.zoomAt(mid, 1/zoomStep)
	case fyne.Key0:
		z.reset()
	default:
		return false
	}
	return true
}

// popChart opens c large.
func (u *App) popChart(c *chartView) {
	p := c.shown()
	if p == nil {
		return
	}
	z := newZoomChart(c)
	title, _, _ := strings.Cut(p.Title.Text, "\n")
	hint := widget.NewLabel(lang.L("Wheel or + / −: zoom · drag: pan · 0: reset · click a legend entry: hide or show it · Esc: close"))
	hint.Truncation = fyne.TextTruncateEllipsis
	var d *dialog.CustomDialog
	bar := container.NewBorder(nil, nil, container.NewHBox(
		widget.NewButton(lang.L("Zoom in"), func() { z.typedKey(fyne.KeyPlus) }),
		widget.NewButton(lang.L("Zoom out"), func() { z.typedKey(fyne.KeyMinus) }),
		widget.NewButton(lang.L("Reset zoom"), z.reset),
		widget.NewButton(lang.L("Save chart…"), func() { u.saveChart(z.chartView) }),
		widget.NewButton(lang.L("Copy image"), func() { u.copyChart(z.chartView) }),
	), widget.NewButton(lang.L("Close"), func() { d.Hide() }), hint)
	d = dialog.NewCustomWithoutButtons(title, container.NewBorder(bar, nil, nil, nil, z), u.win)
	size := u.win.Canvas().Size()
	d.Resize(fyne.NewSize(size.Width*0.96, size.Height*0.94))
	u.popped = z
	u.showDialogThen(d, func() {
		if u.popped == z {
			u.popped = nil
		}
	})
}

// chartActions are what a chart's menu offers.
func (u *App) chartActions(c *chartView) []*fyne.MenuItem {
	items := []*fyne.MenuItem{
		fyne.NewMenuItem(lang.L("Save chart…"), func() { u.saveChart(c) }),
		fyne.NewMenuItem(lang.L("Copy image"), func() { u.copyChart(c) }),
	}
	if c.zoom == nil {
		items = append([]*fyne.MenuItem{fyne.NewMenuItem(lang.L("Open large"), func() { u.popChart(c) })}, items...)
	}
	return items
}

// chartFileName is the default file name of a saved chart: the comparison's and the chart's.
func (u *App) chartFileName(c *chartView) string {
	what := ""
	if u.compare != nil {
		what = comparisonName(u, u.compare.savedID)
	}
	if what == "" && u.compare != nil && u.compare.sels[0] != "" {
		what = fileSafe(u.compare.sels[0]) + "-vs-" + fileSafe(u.compare.sels[1])
	}
	name := "benchlens"
	if what != "" {
		name += "-" + what
	}
	if c.name != "" {
		name += "-" + c.name
	}
	return name + ".png"
}

// savedChartSize is the size a saved chart is drawn at, the exports' (library.Export --png).
var savedChartSize = fyne.NewSize(1200, 750)

// saveChart asks for a folder and a name and writes the chart as shown (series hidden, zoom)
// as a PNG, checked and reported as every export is (writeTo).
func (u *App) saveChart(c *chartView) {
	u.saveChartForm(c, "", u.chartFileName(c))
}

func (u *App) saveChartForm(c *chartView, dir, file string) {
	p := c.shown()
	if p == nil {
		return
	}
	folder, name := u.folderField(dir), widget.NewEntry()
	name.SetText(file)
	d := dialog.NewForm(lang.L("Save chart"), lang.L("Save"), lang.L("Cancel"), []*widget.FormItem{
		widget.NewFormItem(lang.L("Folder"), folder.row),
		widget.NewFormItem(lang.L("Name"), name),
	}, func(ok bool) {
		if !ok || name.Text == "" {
			return
		}
		u.exportDir = folder.entry.Text
		dest := filepath.Join(folder.entry.Text, name.Text)
		again := func() { u.saveChartForm(c, folder.entry.Text, name.Text) }
		lib := u.st.Path()
		u.writeTo(dest, func(bool) error {
			data, err := chart.PNG(p, int(savedChartSize.Width), int(savedChartSize.Height))
			if err != nil {
				return err
			}
			return library.WriteFile(lib, dest, data)
		}, again)
	}, u.win)
	d.Resize(fyne.NewSize(min(640, u.win.Canvas().Size().Width*0.9), 220)) // long paths and names show whole
	u.showDialog(d)
}

// copyChart puts the chart as shown on the clipboard. Fyne's clipboard (v2.7) holds text
// only: the image goes through the system's clipboard tool where there is one (wl-copy,
// xclip), else it is saved to a file whose path is copied instead, and the status line says
// which.
func (u *App) copyChart(c *chartView) {
	p := c.shown()
	if p == nil {
		return
	}
	name := u.chartFileName(c)
	cb := u.fyneApp.Clipboard()
	go func() {
		data, err := chart.PNG(p, int(savedChartSize.Width), int(savedChartSize.Height))
		var how copied
		if err == nil {
			how, err = copyImage(data, name)
		}
		onUI(func() {
			switch {
			case err != nil:
				u.showError(err)
			case how.path != "":
				cb.SetContent(how.path)
				u.setStatus(fmt.Sprintf(lang.L("This system's clipboard takes no images here: the chart is saved as %s and that path is copied."), how.path))
			default:
				u.setStatus(fmt.Sprintf(lang.L("Copied the chart as an image (%s)."), how.tool))
			}
		})
	}()
}
