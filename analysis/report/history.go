package report

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/xuri/excelize/v2"

	"benchlens/analysis/history"
)

// Sheets of a series' history workbook.
const (
	SheetHistory      = "History"
	SheetChangePoints = "Change points"
)

// HistoryXLSX writes a series' history as a workbook: the History sheet (a row per run: date,
// load point, commit, image and each stage metric's median), beside it a native line chart of
// each stage metric over the runs at each load point with its change points marked, and the
// Change points sheet (each step with its levels, test, verdict, causes, what changed and its
// triage).
func HistoryXLSX(w io.Writer, rep history.Report) error {
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", SheetHistory); err != nil {
		return err
	}
	if _, err := historyRuns(f, SheetHistory, 1, rep); err != nil {
		return err
	}
	if _, err := f.NewSheet(SheetChangePoints); err != nil {
		return err
	}
	if err := setRows(f, SheetChangePoints, 1, changePointRows(rep)); err != nil {
		return err
	}
	return f.Write(w)
}

// writeHistories writes the History sheet of a comparisons' workbook: each series the
// compared runs belong to in turn, its title, its change points and its runs with their charts.
func writeHistories(f *excelize.File, reps []history.Report) error {
	row := 1
	for _, rep := range reps {
		title := fmt.Sprintf("Series %s: %d runs at %s, ordered by %s; %d change points, %d outliers", rep.Series, len(rep.Runs),
			strings.Join(rep.LoadPoints, ", "), rep.Order, len(rep.ChangePoints), len(rep.Outliers))
		cps := changePointRows(rep)
		if err := setRows(f, SheetHistory, row, append([][]any{{clip(title)}}, cps...)); err != nil {
			return err
		}
		next, err := historyRuns(f, SheetHistory, row+len(cps)+2, rep)
		if err != nil {
			return err
		}
		row = next + 2
	}
	return nil
}

// historyRuns writes a series' runs into sheet from row on, grouped by load point so each
// point's runs are one range a chart reads: run, date, load point, label, commit, image, each
// stage metric's median, then each metric's value again at the first run after each of its
// change points (the chart's marks). Beside the table, a native line chart of each stage
// metric at each load point, the change points marked. It returns the first row below both.
func historyRuns(f *excelize.File, sheet string, row int, rep history.Report) (int, error) {
	metrics := rep.Metrics()
	header := []any{"run", "date", "load point", "label", "commit", "image"}
	for _, m := range metrics {
		header = append(header, fmt.Sprintf("%s (%s)", m.Title, m.Unit))
	}
	for _, m := range metrics {
		header = append(header, m.Short+" change point")
	}
	header = append(header, "day") // the charts' time axis: the date without its time of day
	steps := map[string]bool{}     // metric|point|first run
	for _, cp := range rep.ChangePoints {
		steps[fmt.Sprint(cp.Stage, "|", cp.LoadPoint, "|", cp.FirstRun)] = true
	}
	rows := [][]any{header}
	type span struct {
		first, last int
		lo, hi      []float64 // each metric's range at the point
	}
	spans := map[string]span{}
	for _, p := range rep.LoadPoints {
		first := row + len(rows)
		sp := span{first: first}
		for range metrics {
			sp.lo, sp.hi = append(sp.lo, math.Inf(1)), append(sp.hi, math.Inf(-1))
		}
		for _, r := range rep.Runs {
			if r.LoadPoint != p {
				continue
			}
			cells := []any{r.ID, r.Date, r.LoadPoint, r.Label, r.Commit, r.Image}
			var marks []any
			for k, m := range metrics {
				v := r.Values[m.Key]
				var cell, mark any
				if v != nil {
					cell = *v
					sp.lo[k], sp.hi[k] = math.Min(sp.lo[k], *v), math.Max(sp.hi[k], *v)
					if steps[fmt.Sprint(m.Key, "|", p, "|", r.ID)] {
						mark = *v
					}
				}
				cells, marks = append(cells, cell), append(marks, mark)
			}
			rows = append(rows, append(append(cells, marks...), dayOf(r.Date)))
		}
		sp.last = row + len(rows) - 1
		spans[p] = sp
	}
	if err := setRows(f, sheet, row, rows); err != nil {
		return 0, err
	}
	if err := f.SetColWidth(sheet, "B", "C", 24); err != nil {
		return 0, err
	}
	n := len(metrics)
	valueCol, markCol, dayCol, chartCol := 7, 7+n, 7+2*n, 7+2*n+2 // the charts start a column right of the table
	at := row
	for _, p := range rep.LoadPoints {
		sp := spans[p]
		if sp.last < sp.first {
			continue
		}
		for k, m := range metrics {
			cell, _ := excelize.CoordinatesToCellName(chartCol+(k%2)*8, at+(k/2)*historyChartRows)
			// The value axis spans the values, not from zero: a 10 % step is plain to see.
			var yMin, yMax *float64
			if lo, hi := sp.lo[k], sp.hi[k]; lo <= hi {
				pad := math.Max((hi-lo)*0.1, math.Abs(hi)*0.01)
				yMin, yMax = ptr(axisRound(lo-pad, false)), ptr(axisRound(hi+pad, true))
			}
			ch := &excelize.Chart{
				Type:      excelize.Line,
				Dimension: excelize.ChartDimension{Width: 480, Height: 360},
				Title:     chartTitle(fmt.Sprintf("%s over the series · %s", m.Title, p)),
				Legend:    excelize.ChartLegend{Position: "bottom"},
				XAxis: excelize.ChartAxis{Title: chartTitle("night"), TickLabelSkip: max(1, (sp.last-sp.first+1)/6),
					Alignment: excelize.Alignment{TextRotation: 90}},
				YAxis: excelize.ChartAxis{Title: chartTitle(m.Unit), MajorGridLines: true, Minimum: yMin, Maximum: yMax},
				Series: []excelize.ChartSeries{{
					Name:       sheetRange(sheet, valueCol+k, row, row),
					Categories: sheetRange(sheet, dayCol, sp.first, sp.last),
					Values:     sheetRange(sheet, valueCol+k, sp.first, sp.last),
					Line:       excelize.LineOptions{Width: 1.5},
					Marker:     excelize.ChartMarker{Symbol: "circle", Size: 4},
				}, {
					Name:       sheetRange(sheet, markCol+k, row, row),
					Categories: sheetRange(sheet, dayCol, sp.first, sp.last),
					Values:     sheetRange(sheet, markCol+k, sp.first, sp.last),
					Line:       excelize.LineOptions{Type: excelize.LineNone},
					Marker: excelize.ChartMarker{Symbol: "diamond", Size: 10,
						Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"C62828"}}},
				}},
				ShowBlanksAs: "gap",
			}
			if err := f.AddChart(sheet, cell, ch); err != nil {
				return 0, err
			}
		}
		at += historyChartRows * ((n + 1) / 2)
	}
	return max(row+len(rows), at), nil
}

// axisRound rounds an axis bound outwards to two significant digits, so the axis reads 44 to
// 58, not 43.8127 to 57.9412.
func axisRound(v float64, up bool) float64 {
	if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return v
	}
	step := math.Pow(10, math.Floor(math.Log10(math.Abs(v)))-1)
	if up {
		return math.Ceil(v/step) * step
	}
	return math.Floor(v/step) * step
}

// dayOf is a run's date without its time of day, when it starts with one.
func dayOf(date string) string {
	if len(date) >= 10 && date[4] == '-' && date[7] == '-' {
		return date[:10]
	}
	return date
}

// changePointRows are a series' change points as a table: each step with its levels, test,
// verdict, causes, what changed and its triage.
func changePointRows(rep history.Report) [][]any {
	rows := [][]any{{"stage", "load point", "first run", "first date", "last run before", "before", "after", "delta %", "p",
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
		rows = append(rows, []any{cp.Stage, cp.LoadPoint, cp.FirstRun, cp.FirstDate, cp.LastRunBefore, cp.Before, cp.After,
			cp.DeltaPct, cp.P, string(cp.Status), clip(cp.Verdict), strings.Join(causes, ", "), clip(changedText(cp.Changed)), state, clip(note)})
	}
	return rows
}

// setRows writes rows into sheet from row on, a value per cell.
func setRows(f *excelize.File, sheet string, row int, rows [][]any) error {
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, row+i)
		if err := f.SetSheetRow(sheet, cell, &r); err != nil {
			return err
		}
	}
	return nil
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
	fmt.Fprintf(&b, "## History of %s\n\n%s, ordered by %s; %s.\n\n", mdInline(rep.Series), Count(len(rep.Runs), "run", "runs"), rep.Order, Count(len(rep.LoadPoints), "load point", "load points"))
	if len(rep.ChangePoints) == 0 {
		b.WriteString("No change point.\n\n")
	} else {
		b.WriteString("| stage | load point | from | change | p | windows | triage |\n|---|---|---|---:|---:|---|---|\n")
		for _, cp := range rep.ChangePoints {
			m, _ := history.MetricOf(cp.Stage)
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

// historyChartRows is the height of a series chart in rows: 360 px at the default 20 px a row,
// and a row between charts.
const historyChartRows = 19
