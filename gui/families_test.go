package gui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"benchlens/analysis/compare"
	"benchlens/model"
)

// The families panel draws one bar per arm on a common scale and a row per family, the
// targeted one marked.
func TestFamiliesPanel(t *testing.T) {
	test.NewApp()
	p := newFamiliesPanel()
	p.set(&compare.Families{Per: "step", Rows: []compare.FamilyRow{
		{Family: "attention", Baseline: compare.FamilyFigs{TimeUs: 2000, Share: 0.2}, Candidate: compare.FamilyFigs{TimeUs: 1200, Share: 0.1}, DeltaPct: model.Num(-40)},
		{Family: "gemm", Baseline: compare.FamilyFigs{TimeUs: 8000, Share: 0.8}, Candidate: compare.FamilyFigs{TimeUs: 10800, Share: 0.9}, DeltaPct: model.Num(35)},
	}, Targeted: &compare.Targeted{Path: "attention", Family: "attention", Fell: true}})
	w := test.NewWindow(p.box)
	w.Resize(fyne.NewSize(600, 400))
	defer w.Close()
	if len(p.box.Objects) != 4 {
		t.Fatalf("%d rows in the panel", len(p.box.Objects))
	}
	// The candidate has more device time: its bar fills the scale, the baseline's does not.
	form := p.box.Objects[1].(*fyne.Container)
	bars := [2]*fyne.Container{form.Objects[1].(*fyne.Container), form.Objects[3].(*fyne.Container)}
	if bars[0].Position().X != bars[1].Position().X {
		t.Errorf("bars start at %v and %v", bars[0].Position().X, bars[1].Position().X)
	}
	last := func(c *fyne.Container) float32 { return c.Objects[len(c.Objects)-1].Size().Width }
	if last(bars[1]) > 0.5 || last(bars[0]) < 10 {
		t.Errorf("empty tails: baseline %v, candidate %v", last(bars[0]), last(bars[1]))
	}
	grid := p.box.Objects[2].(*fyne.Container)
	name := grid.Objects[5].(*fyne.Container).Objects[1].(*widget.Label).Text
	if name != "attention ◀" {
		t.Errorf("first family %q", name)
	}
	p.set(nil)
	if len(p.box.Objects) != 1 {
		t.Errorf("no families: %d objects", len(p.box.Objects))
	}
}
