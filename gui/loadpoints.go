package gui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"benchlens/analysis/compare"
	"benchlens/analysis/report"
	"benchlens/model"
)

// loadPointsPanel shows a sweep compared point by point (METHOD.md rule 9): each matched
// point's repeats, stage deltas and verdict, where the conclusion holds and the points one arm
// ran alone (the load curves and per-point deltas are in the chart column). It hides itself
// for arms of one load point.
type loadPointsPanel struct {
	content *widget.Card
	table   *fyne.Container
	holds   *widget.Label
}

func newLoadPointsPanel() *loadPointsPanel {
	p := &loadPointsPanel{table: container.NewVBox(), holds: widget.NewLabel("")}
	p.holds.Wrapping = fyne.TextWrapWord
	p.content = widget.NewCard(lang.L("Load points"), lang.L("Each load point both arms ran, compared on its own"),
		container.NewVBox(p.holds, p.table))
	p.content.Hide()
	return p
}

// show fills the panel from a record, or hides it.
func (p *loadPointsPanel) show(rec compare.Record) {
	if len(rec.LoadPoints) == 0 && len(rec.Unmatched) == 0 {
		p.content.Hide()
		return
	}
	rows := container.NewVBox()
	for _, lp := range rec.LoadPoints {
		deltas := report.PointDeltas(lp)
		for i, m := range model.BriefMetrics() {
			deltas[i] = m.Short + " " + deltas[i]
		}
		l := widget.NewLabel(fmt.Sprintf("%s (%s): %s → %s", lp.Label,
			report.FormatRepeats(lp.Repeats.Baseline, lp.Repeats.Candidate), strings.Join(deltas, ", "), report.PointVerdict(lp)))
		l.Importance = statusImportance(lp.Status)
		l.Wrapping = fyne.TextWrapWord
		rows.Add(l)
	}
	for _, u := range rec.Unmatched {
		l := widget.NewLabel(fmt.Sprintf("%s: %s (%s)", u.Label, lang.L("unmatched"), u.Arm))
		l.Wrapping = fyne.TextWrapWord
		rows.Add(l)
	}
	p.table.Objects = []fyne.CanvasObject{rows}
	p.table.Refresh()
	p.holds.SetText(lang.L("Holds under:") + " " + rec.HoldsUnder)
	p.content.Show()
}
