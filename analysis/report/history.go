package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/xuri/excelize/v2"

	"benchlens/analysis/history"
	"benchlens/model"
)

// Sheets of a series' history workbook.
const (
	SheetHistory      = "History"
	SheetChangePoints = "Change points"
)

// HistoryXLSX writes a series' history as a workbook: the History sheet (a row per run: date,
// load point, commit, image and each stage metric's median), under it a native line chart of
// each stage metric over the runs at each load point, and the Change points sheet (each step
// with its levels, test, verdict, causes, what changed and its triage).
func HistoryXLSX(w io.Writer, rep history.Report) error {
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", SheetHistory); err != nil {
		return err
	}
	header := []any{"run", "date", "load point", "label", "commit", "image"}
	for _, m := range model.StageMetrics {
		header = append(header, fmt.Sprintf("%s (%s)", m.Title, m.Unit))
	}
	rows := [][]any{header}
	// Runs grouped by load point, so each point's runs are one range a chart reads.
	type span struct{ first, last int }
	spans := map[string]span{}
	for _, p := range rep.LoadPoints {
		first := len(rows) + 1
		for _, r := range rep.Runs {
			if r.LoadPoint != p {
				continue
			}
			row := []any{r.ID, r.Date, r.LoadPoint, r.Label, r.Commit, r.Image}
			for _, m := range model.StageMetrics {
				if v := r.Values[m.Key]; v != nil {
					row = append(row, *v)
				} else {
					row = append(row, nil)
				}
			}
			rows = append(rows, row)
		}
		spans[p] = span{first, len(rows)}
	}
	for i, row := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow(SheetHistory, cell, &row); err != nil {
			return err
		}
	}
	if err := f.SetColWidth(SheetHistory, "B", "C", 24); err != nil {
		return err
	}
	at := len(rows) + 3
	for _, p := range rep.LoadPoints {
		sp := spans[p]
		if sp.last < sp.first {
			continue
		}
		for k, m := range model.StageMetrics {
			col := 7 + k
			cell, _ := excelize.CoordinatesToCellName(1+(k%2)*8, at+(k/2)*16)
			ch := &excelize.Chart{
				Type:      excelize.Line,
				Dimension: excelize.ChartDimension{Width: 480, Height: 300},
				Title:     chartTitle(fmt.Sprintf("%s over the series · %s", m.Title, p)),
				Legend:    excelize.ChartLegend{Position: "none"},
				XAxis:     excelize.ChartAxis{Title: chartTitle("run date")},
				YAxis:     excelize.ChartAxis{Title: chartTitle(m.Unit), MajorGridLines: true},
				Series: []excelize.ChartSeries{{
					Name:       sheetRange(SheetHistory, col, 1, 1),
					Categories: sheetRange(SheetHistory, 2, sp.first, sp.last),
					Values:     sheetRange(SheetHistory, col, sp.first, sp.last),
					Line:       excelize.LineOptions{Width: 1.5},
					Marker:     excelize.ChartMarker{Symbol: "circle", Size: 4},
				}},
			}
			if err := f.AddChart(SheetHistory, cell, ch); err != nil {
				return err
			}
		}
		at += 16 * ((len(model.StageMetrics) + 1) / 2)
	}
	if _, err := f.NewSheet(SheetChangePoints); err != nil {
		return err
	}
	cps := [][]any{{"stage", "load point", "first run", "first date", "last run before", "before", "after", "delta %", "p",
		"status", "verdict", "causes", "changed", "triage", "triage note"}}
	for _, cp := range rep.ChangePoints {
		var causes []string
		for _, c := range cp.Causes {
			causes = append(causes, string(c.Code))
		}
		state, note := "", ""
		if cp.Triage != nil {
			state, note = cp.Triage.State, cp.Triage.Note
		}
		cps = append(cps, []any{cp.Stage, cp.LoadPoint, cp.FirstRun, cp.FirstDate, cp.LastRunBefore, cp.Before, cp.After,
			cp.DeltaPct, cp.P, string(cp.Status), cp.Verdict, strings.Join(causes, ", "), changedText(cp.Changed), state, note})
	}
	for i, row := range cps {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow(SheetChangePoints, cell, &row); err != nil {
			return err
		}
	}
	return f.Write(w)
}

// changedText is what changed between a step's windows, "field before → after; …", by name.
func changedText(changed map[string][2]string) string {
	var parts []string
	for _, k := range sortedStrings(changed) {
		parts = append(parts, k+" "+changed[k][0]+" → "+changed[k][1])
	}
	return strings.Join(parts, "; ")
}

func sortedStrings(m map[string][2]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

// HistoryMarkdown writes a series' history for a pull request or a wiki: each step with its
// verdict and triage, the outliers, and the condition changes that moved nothing.
func HistoryMarkdown(w io.Writer, rep history.Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## History of %s\n\n%d runs, ordered by %s; %d load point(s).\n\n", mdInline(rep.Series), len(rep.Runs), rep.Order, len(rep.LoadPoints))
	if len(rep.ChangePoints) == 0 {
		b.WriteString("No change point.\n\n")
	} else {
		b.WriteString("| stage | load point | from | change | p | windows | triage |\n|---|---|---|---:|---:|---|---|\n")
		for _, cp := range rep.ChangePoints {
			m, _ := model.StageMetricOf(cp.Stage)
			tri := "-"
			if cp.Triage != nil {
				tri = cp.Triage.State
				if cp.Triage.Note != "" {
					tri += ": " + cp.Triage.Note
				}
			}
			fmt.Fprintf(&b, "| %s | %s | %s (run %d) | %+.1f %% | %.3g | %s | %s |\n", m.Title, mdInline(cp.LoadPoint),
				mdInline(cp.FirstDate), cp.FirstRun, cp.DeltaPct, cp.P, cp.Status, mdInline(tri))
		}
		b.WriteString("\n")
		for _, cp := range rep.ChangePoints {
			fmt.Fprintf(&b, "- %s\n", mdInline(cp.Verdict))
		}
		b.WriteString("\n")
	}
	if len(rep.Outliers) > 0 {
		b.WriteString("Outliers (lone runs out of their level, back the next run):\n\n")
		for _, o := range rep.Outliers {
			fmt.Fprintf(&b, "- run %d (%s): %s at %s %.4g against %.4g\n", o.Run, mdInline(o.Date), o.Stage, mdInline(o.LoadPoint), o.Value, o.Level)
		}
		b.WriteString("\n")
	}
	if len(rep.Timeline) > 0 {
		b.WriteString("Condition changes:\n\n")
		for _, c := range rep.Timeline {
			moved := "nothing moved"
			if len(c.Steps) > 0 {
				moved = "steps: " + strings.Join(c.Steps, "; ")
			}
			fmt.Fprintf(&b, "- run %d (%s): %s (%s)\n", c.Run, mdInline(c.Date), mdInline(changedText(c.Changed)), mdInline(moved))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
