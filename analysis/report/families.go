package report

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/xuri/excelize/v2"

	"benchlens/analysis/compare"
	"benchlens/model"
)

// The Families sheet (METHOD.md rule 11): per comparison, each operator family's device time
// per step (or per trace) in both arms, its change and its share, with a native stacked bar per
// arm beside the table.

// SheetFamilies is the sheet's name.
const SheetFamilies = "Families"

var familyCols = []column{
	{"comparison", kInt, 11}, {"family", kText, 14}, {"per", kText, 8},
	{"baseline_us", kNum, 14}, {"candidate_us", kNum, 14}, {"delta_us", kNum, 12}, {"delta_pct", kNum, 11},
	{"baseline_share", kNum, 15}, {"candidate_share", kNum, 16}, {"baseline_count", kNum, 15}, {"candidate_count", kNum, 16},
	{"targeted", kText, 10},
}

// familiesTable lays out the family rows of every entry that has them.
func familiesTable(entries []Entry) (*table, []rowSpan) {
	t := &table{sheet: SheetFamilies, file: "families.csv", cols: familyCols}
	var spans []rowSpan
	for i, e := range entries {
		f := e.Record.Families
		if f == nil || len(f.Rows) == 0 {
			continue
		}
		sp := rowSpan{index: i, entry: e, first: len(t.rows) + 2}
		for _, r := range f.Rows {
			targeted := ""
			if f.Targeted != nil && f.Targeted.Family == r.Family {
				targeted = "yes"
			}
			t.rows = append(t.rows, []any{e.ID, r.Family, f.Per, floatCell(r.Baseline.TimeUs), floatCell(r.Candidate.TimeUs),
				num(r.DeltaUs), num(r.DeltaPct), floatCell(r.Baseline.Share), floatCell(r.Candidate.Share),
				floatCell(r.Baseline.Count), floatCell(r.Candidate.Count), targeted})
		}
		sp.last = len(t.rows) + 1
		spans = append(spans, sp)
	}
	return t, spans
}

// hasFamilies reports whether any entry has a family table.
func hasFamilies(entries []Entry) bool {
	for _, e := range entries {
		if e.Record.Families != nil && len(e.Record.Families.Rows) > 0 {
			return true
		}
	}
	return false
}

// writeFamilies writes the sheet and, for the first nCharts comparisons, a stacked bar of the
// families' device time per arm (one series per family, the two arms as categories) on the
// Charts sheet, beside the comparison's other charts: the Families sheet is streamed, and a
// streamed sheet cannot take a drawing.
func writeFamilies(f *excelize.File, st *styles, entries []Entry, nCharts int) error {
	t, spans := familiesTable(entries)
	if err := writeTable(f, st, t, 2); err != nil {
		return err
	}
	for _, sp := range spans {
		if sp.index >= nCharts {
			break
		}
		ch := &excelize.Chart{
			Type:      excelize.BarStacked,
			Dimension: excelize.ChartDimension{Width: 520, Height: 260},
			Title:     chartTitle(fmt.Sprintf("comparison %d: device time by family (us)", sp.entry.ID)),
			Legend:    excelize.ChartLegend{Position: "right"},
			XAxis:     excelize.ChartAxis{ReverseOrder: true},
			YAxis:     excelize.ChartAxis{MajorGridLines: true, NumFmt: excelize.ChartNumFmt{CustomNumFmt: "#,##0"}},
		}
		for row := sp.first; row <= sp.last; row++ {
			ch.Series = append(ch.Series, excelize.ChartSeries{
				Name:       sheetRange(SheetFamilies, 2, row, row),
				Categories: fmt.Sprintf("'%s'!$D$1:$E$1", SheetFamilies),
				Values:     fmt.Sprintf("'%s'!$D$%d:$E$%d", SheetFamilies, row, row),
			})
		}
		cell, _ := excelize.CoordinatesToCellName(17, 2+sp.index*chartBlockRows) // right of the first row of charts
		if err := f.AddChart(SheetCharts, cell, ch); err != nil {
			return err
		}
	}
	return nil
}

// familiesText writes the family table of the text report: device time per step (or per trace)
// per arm, the change, and the shares.
func familiesText(b *strings.Builder, f *compare.Families) {
	if f == nil || len(f.Rows) == 0 {
		return
	}
	fmt.Fprintf(b, "\ndevice time by operator family (us per %s)\n", f.Per)
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "family\tbaseline\tcandidate\tdelta\tshare\t")
	for _, r := range f.Rows {
		mark := ""
		if f.Targeted != nil && f.Targeted.Family == r.Family {
			mark = "  <- targeted (" + string(f.Targeted.Path) + ")"
		}
		pct := "?"
		if r.DeltaPct.Known() {
			pct = compare.Pct(r.DeltaPct.F())
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.0f%% -> %.0f%%\t%s\n", r.Family, model.Num(r.Baseline.TimeUs).Readable(), model.Num(r.Candidate.TimeUs).Readable(), pct,
			100*r.Baseline.Share, 100*r.Candidate.Share, mark)
	}
	tw.Flush()
}
