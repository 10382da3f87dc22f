package gui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"
	"gonum.org/v1/plot"

	"benchlens/analysis/chart"
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

// The load point the compare view shows (rule 9): a sweep's Stages table, distributions,
// buckets and spread are per point, or every point's rows with "All points"; nothing pools
// unlike loads under a statistic (the pooled CDFs say so and give no median).

// pointLabel is the load point picked, "" for all points.
func (v *compareView) pointLabel() string {
	if v.point.SelectedIndex() > 0 {
		return v.point.Selected
	}
	return ""
}

// pointFor is the point to show a comparison of base with cand at: the one picked while the
// same pair is compared again (after an import, a settings change), else all points.
func (v *compareView) pointFor(base, cand string) string {
	if v.sels == [2]string{base, cand} {
		return v.pointLabel()
	}
	return ""
}

// pointIndex is the index of the point labelled label in rec, -1 for all points or none.
func pointIndex(rec compare.Record, label string) int {
	for i, p := range rec.LoadPoints {
		if label != "" && p.Label == label {
			return i
		}
	}
	return -1
}

// chartsAt draws the charts of a comparison at the load point labelled point: that point's
// distributions, stages, spread and buckets beside the sweep's load charts; all points'
// otherwise.
func chartsAt(arms [2]compare.Arm, rec compare.Record, point string, opt chart.Options) (map[string]*plot.Plot, map[string]chart.Reader, error) {
	plots, reads, err := chart.ForComparison(arms[0], arms[1], rec, opt)
	i := pointIndex(rec, point)
	if err != nil || i < 0 {
		return plots, reads, err
	}
	at, atReads, err := chart.ForPoint(arms[0], arms[1], rec, i, opt)
	if err != nil {
		return nil, nil, err
	}
	for k, p := range plots {
		if strings.HasPrefix(k, "load_") || strings.HasPrefix(k, "slo_") { // the sweep's, whatever the point
			at[k], atReads[k] = p, reads[k]
		}
	}
	return at, atReads, nil
}

// showPoints offers a sweep's points in the selector, picks point ("" or gone: all) and fills
// the Stages table for it.
func (v *compareView) showPoints(rec compare.Record, point string) {
	if len(rec.LoadPoints) == 0 {
		v.pointRow.Hide()
		v.showStages(rec, "")
		return
	}
	opts := []string{fmt.Sprintf(lang.L("All %d points"), len(rec.LoadPoints))}
	for _, p := range rec.LoadPoints {
		opts = append(opts, p.Label)
	}
	v.picking = true
	v.point.Options = opts
	if pointIndex(rec, point) >= 0 {
		v.point.SetSelected(point)
	} else {
		v.point.SetSelectedIndex(0)
		point = ""
	}
	v.point.Refresh()
	v.picking = false
	v.pointRow.Show()
	v.showStages(rec, point)
}

// onPoint shows the point picked: its stages at once, its charts once drawn.
func (v *compareView) onPoint() {
	if v.picking || v.record == nil {
		return
	}
	v.showStages(*v.record, v.pointLabel())
	v.redrawCDFs()
}

// showStages fills the Stages table: a comparison's stages, one point's, or every point's
// rows under its label.
func (v *compareView) showStages(rec compare.Record, point string) {
	var table fyne.CanvasObject
	switch i := pointIndex(rec, point); {
	case i >= 0:
		table = stageTable(rec.AtPoint(i), v.scroll)
	case len(rec.LoadPoints) > 0:
		var parts []compare.Record
		for i := range rec.LoadPoints {
			parts = append(parts, rec.AtPoint(i))
		}
		table = pointsStageTable(rec, parts, v.scroll)
	default:
		table = stageTable(rec, v.scroll)
	}
	v.stages.Objects = []fyne.CanvasObject{table}
	if r := powerRow(rec); r != nil {
		v.stages.Add(r)
	}
	v.stages.Refresh()
}
