package gui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"benchlens/analysis/compare"
	"benchlens/analysis/report"
	"benchlens/model"
)

// stageColumn is one column of the Stages table: its header (which may depend on the
// comparisons shown) and its cell for a stage. A new column is one more entry in
// stageColumns; the table wraps to the pane's width by itself.
type stageColumn struct {
	header func(recs []compare.Record) string
	cell   func(rec compare.Record, m model.StageMetric, d compare.StageDelta) fyne.CanvasObject
}

var stageColumns = []stageColumn{
	{func([]compare.Record) string { return lang.L("stage") }, func(_ compare.Record, m model.StageMetric, _ compare.StageDelta) fyne.CanvasObject {
		return widget.NewLabel(lang.L(m.Title))
	}},
	{func([]compare.Record) string { return lang.L("baseline") }, func(_ compare.Record, _ model.StageMetric, d compare.StageDelta) fyne.CanvasObject {
		return widget.NewLabel(d.Baseline.Readable() + " " + d.Unit)
	}},
	{func([]compare.Record) string { return lang.L("candidate") }, func(_ compare.Record, _ model.StageMetric, d compare.StageDelta) fyne.CanvasObject {
		return widget.NewLabel(d.Candidate.Readable() + " " + d.Unit)
	}},
	{func([]compare.Record) string { return lang.L("delta") }, func(_ compare.Record, _ model.StageMetric, d compare.StageDelta) fyne.CanvasObject {
		delta := widget.NewLabel(deltaText(d))
		switch {
		case d.Better:
			delta.Importance = widget.SuccessImportance
		case d.Worse:
			delta.Importance = widget.DangerImportance
		}
		return delta
	}},
	{intervalHeader, func(_ compare.Record, _ model.StageMetric, d compare.StageDelta) fyne.CanvasObject {
		return widget.NewLabel(intervalText(d))
	}},
	{func([]compare.Record) string { return lang.L("test") }, func(_ compare.Record, _ model.StageMetric, d compare.StageDelta) fyne.CanvasObject {
		test := "-"
		if d.P.Known() {
			test = fmt.Sprintf("p%s n=%d+%d", report.P(d.P.F()), d.N[0], d.N[1])
		}
		return widget.NewLabel(test)
	}},
	{func([]compare.Record) string { return lang.L("p90 / p99") }, func(rec compare.Record, m model.StageMetric, _ compare.StageDelta) fyne.CanvasObject {
		return widget.NewLabel(tailText(rec.Tails[m.Key]))
	}},
}

// intervalHeader says whether the intervals are over runs or, with one run per arm, over
// requests.
func intervalHeader(recs []compare.Record) string {
	for _, rec := range recs {
		for _, d := range rec.Perf {
			if d.PerRequest {
				return lang.L("interval, per request")
			}
		}
	}
	return lang.L("interval, per run")
}

// stageTable is the benchstat-style table of the stages: medians, the delta, its interval
// and test, each column as wide as its widest cell, wrapped onto a second line where the
// pane is narrower than the row.
func stageTable(rec compare.Record, page *container.Scroll) fyne.CanvasObject {
	b := newTableBuilder(len(stageColumns))
	stageHeader(b, rec)
	stageRows(b, rec)
	return b.build(page)
}

// pointsStageTable is the stage table of a sweep: each matched point's rows (parts, from
// Record.AtPoint) under its label, repeats and verdict (a title across the table), never a
// pooled row.
func pointsStageTable(rec compare.Record, parts []compare.Record, page *container.Scroll) fyne.CanvasObject {
	b := newTableBuilder(len(stageColumns))
	stageHeader(b, parts...)
	for i, part := range parts {
		lp := rec.LoadPoints[i]
		verdict := widget.NewLabel(report.FormatRepeats(lp.Repeats.Baseline, lp.Repeats.Candidate) + " " + lang.L("runs") + " · " + statusText(lp.Status))
		verdict.Importance = statusImportance(lp.Status)
		b.span(bold(lp.Label), verdict)
		stageRows(b, part)
	}
	return b.build(page)
}

// stageHeader adds the stage table's header row.
func stageHeader(b *tableBuilder, recs ...compare.Record) {
	var cells []fyne.CanvasObject
	for _, c := range stageColumns {
		cells = append(cells, bold(c.header(recs)))
	}
	b.row(cells...)
}

// stageRows adds a comparison's rows of the stage table, one per stage measured.
func stageRows(b *tableBuilder, rec compare.Record) {
	for _, m := range model.StageMetrics {
		d, ok := rec.Perf[m.Key]
		if !ok || !d.Baseline.Known() {
			continue
		}
		var cells []fyne.CanvasObject
		for _, c := range stageColumns {
			cells = append(cells, c.cell(rec, m, d))
		}
		b.row(cells...)
	}
}

// conditionValueRunes is where a condition's value is cut: the table wraps, so a model's
// full name fits; a command line does not.
const conditionValueRunes = 64

// conditionsTable is the conditions as a diff: field, baseline, candidate, whether they
// are the same, differ or are unknown (glyph and word, for greyscale prints), and the file
// each value was read from.
func conditionsTable(rec compare.Record, page *container.Scroll) fyne.CanvasObject {
	b := newTableBuilder(5)
	b.row(bold(""), bold(lang.L("field")), bold(lang.L("baseline")), bold(lang.L("candidate")), bold(lang.L("source")))
	cut := func(s string) string {
		if s == "" {
			return "—"
		}
		if r := []rune(s); len(r) > conditionValueRunes {
			return string(r[:conditionValueRunes-1]) + "…"
		}
		return s
	}
	for _, c := range rec.Conditions() {
		state := conditionStates[c.State]
		mark := canvas.NewText(checkGlyphs[state]+" "+conditionWord(c.State), checkColours[state])
		mark.TextStyle.Bold = c.State == model.ConditionDiffers
		name := widget.NewLabel(strings.Replace(c.Name, "stack_fingerprint.", "stack.", 1))
		name.TextStyle.Bold = c.State == model.ConditionDiffers
		b.row(container.NewCenter(mark), name, widget.NewLabel(cut(c.Baseline)), widget.NewLabel(cut(c.Candidate)),
			widget.NewLabel(c.SourceText())) // the file and line each value was read from
	}
	return b.build(page)
}
