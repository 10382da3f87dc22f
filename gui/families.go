package gui

import (
	"fmt"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"benchlens/analysis/compare"
	"benchlens/model"
)

// familiesPanel shows METHOD.md rule 11 for a comparison: one stacked bar per arm of the device
// time by operator family (bars on one scale, so the longer bar is the arm with more device
// time), and the table of per-family changes with the targeted family marked.
type familiesPanel struct {
	box *fyne.Container
}

// familyColors are fixed per family so both bars and the legend agree.
var familyColors = map[string]color.NRGBA{
	"attention": {0x2F, 0x75, 0xB5, 0xff}, "gemm": {0x8E, 0xA9, 0xDB, 0xff}, "moe": {0x70, 0x30, 0xA0, 0xff},
	"norm": {0x70, 0xAD, 0x47, 0xff}, "elementwise": {0xFF, 0xC0, 0x00, 0xff}, "rotary": {0x00, 0xB0, 0xA0, 0xff},
	"sampling": {0xED, 0x7D, 0x31, 0xff}, "communication": {0xC0, 0x00, 0x00, 0xff}, "memcpy": {0xA5, 0xA5, 0xA5, 0xff},
	"other": {0x40, 0x40, 0x40, 0xff},
}

func newFamiliesPanel() *familiesPanel {
	return &familiesPanel{box: container.NewVBox(widget.NewLabel(lang.L("No profiler traces on both sides.")))}
}

// set shows a record's families (nil: none).
func (p *familiesPanel) set(f *compare.Families) {
	if f == nil || len(f.Rows) == 0 {
		p.box.Objects = []fyne.CanvasObject{widget.NewLabel(lang.L("No profiler traces on both sides."))}
		p.box.Refresh()
		return
	}
	var total [2]float64
	for _, r := range f.Rows {
		total[0] += r.Baseline.TimeUs
		total[1] += r.Candidate.TimeUs
	}
	scale := max(total[0], total[1])
	bar := func(side int) fyne.CanvasObject {
		var weights []float64
		var segs []fyne.CanvasObject
		for _, r := range f.Rows {
			us := r.Baseline.TimeUs
			if side == 1 {
				us = r.Candidate.TimeUs
			}
			weights = append(weights, us/scale)
			segs = append(segs, canvas.NewRectangle(familyColors[r.Family]))
		}
		weights = append(weights, 1-total[side]/scale) // the rest of the scale stays empty
		segs = append(segs, canvas.NewRectangle(color.Transparent))
		return container.New(&shareLayout{weights: weights, height: 18}, segs...)
	}
	grid := container.NewGridWithColumns(5, bold(lang.L("family")), bold(lang.L("baseline")), bold(lang.L("candidate")),
		bold(lang.L("delta")), bold(lang.L("share")))
	for _, r := range f.Rows {
		name := r.Family
		if f.Targeted != nil && f.Targeted.Family == r.Family {
			name += " ◀"
		}
		swatch := canvas.NewRectangle(familyColors[r.Family])
		swatch.SetMinSize(fyne.NewSize(10, 10))
		delta := "?"
		if r.DeltaPct.Known() {
			delta = compare.Pct(r.DeltaPct.F())
		}
		grid.Add(container.NewHBox(container.NewCenter(swatch), widget.NewLabel(name)))
		grid.Add(widget.NewLabel(model.Plain(r.Baseline.TimeUs)))
		grid.Add(widget.NewLabel(model.Plain(r.Candidate.TimeUs)))
		grid.Add(widget.NewLabel(delta))
		grid.Add(widget.NewLabel(fmt.Sprintf("%.0f%% → %.0f%%", 100*r.Baseline.Share, 100*r.Candidate.Share)))
	}
	unit := fmt.Sprintf(lang.L("device time, µs per %s"), f.Per)
	p.box.Objects = []fyne.CanvasObject{
		widget.NewLabel(unit),
		// One form, so both bars start at the same x and share the scale.
		container.New(layout.NewFormLayout(), widget.NewLabel(lang.L("baseline")), bar(0), widget.NewLabel(lang.L("candidate")), bar(1)),
		grid,
	}
	if f.Targeted != nil {
		state := lang.L("did not fall")
		if f.Targeted.Fell {
			state = lang.L("fell")
		}
		p.box.Add(widget.NewLabel(fmt.Sprintf(lang.L("◀ targeted by the change (path %s): %s"), f.Targeted.Path, state)))
	}
	p.box.Refresh()
}

// shareLayout places its objects side by side, each as wide as its weight of the width.
type shareLayout struct {
	weights []float64
	height  float32
}

func (l *shareLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	x := float32(0)
	for i, o := range objs {
		w := float32(0)
		if i < len(l.weights) {
			w = float32(max(l.weights[i], 0)) * size.Width
		}
		o.Move(fyne.NewPos(x, 0))
		o.Resize(fyne.NewSize(w, size.Height))
		x += w
	}
}

func (l *shareLayout) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(120, l.height) }
