package report

import (
	"fmt"
	"strings"

	"github.com/xuri/excelize/v2"

	"benchlens/model"
)

// SheetLoadPoints holds every matched load point of every comparison that has them, and a
// native chart per comparison of output throughput against TTFT and TPOT per arm.
const SheetLoadPoints = "Load points"

// Columns of the Load points sheet the charts read.
const (
	lpBaseTokS = 12 // baseline output tok/s (median over repeats)
	lpCandTokS = 15
	lpBaseTTFT = 18
	lpCandTTFT = 20
	lpBaseTPOT = 22
	lpCandTPOT = 24
)

var loadPointCols = []column{
	{"comparison", kInt, 11}, {"load point", kText, 22}, {"max_concurrency", kNum, 0}, {"request_rate", kReqS, 0},
	{"repeats.baseline", kInt, 0}, {"repeats.candidate", kInt, 0}, {"status", kStatus, 16}, {"causes", kText, 36},
	{"ttft.delta_pct", kPct, 0}, {"tpot.delta_pct", kPct, 0}, {"itl.delta_pct", kPct, 0},
	{"baseline.output_tok_s", kTokS, 0}, {"baseline.output_tok_s.min", kTokS, 0}, {"baseline.output_tok_s.max", kTokS, 0},
	{"candidate.output_tok_s", kTokS, 0}, {"candidate.output_tok_s.min", kTokS, 0}, {"candidate.output_tok_s.max", kTokS, 0},
	{"baseline.ttft_p50", kMS, 0}, {"baseline.ttft_p99", kMS, 0}, {"candidate.ttft_p50", kMS, 0}, {"candidate.ttft_p99", kMS, 0},
	{"baseline.tpot_p50", kMS, 0}, {"baseline.tpot_p99", kMS, 0}, {"candidate.tpot_p50", kMS, 0}, {"candidate.tpot_p99", kMS, 0},
	{"output_tok_s.delta_pct", kPct, 0},
}

// hasLoadPoints reports whether any entry compared several load points.
func hasLoadPoints(entries []Entry) bool {
	for _, e := range entries {
		if len(e.Record.LoadPoints) > 0 {
			return true
		}
	}
	return false
}

// rowSpan is where one comparison's rows sit on a sheet (1-based, header in row 1).
type rowSpan struct {
	index       int // the comparison's place among the entries
	entry       Entry
	first, last int
}

// loadPointsTable is one row per matched point of every comparison, numbers as numbers.
func loadPointsTable(entries []Entry) (*table, []rowSpan) {
	t := &table{sheet: SheetLoadPoints, file: "load_points.csv", cols: loadPointCols}
	var spans []rowSpan
	for i, e := range entries {
		if len(e.Record.LoadPoints) == 0 {
			continue
		}
		sp := rowSpan{index: i, entry: e, first: len(t.rows) + 2}
		for _, p := range e.Record.LoadPoints {
			b, c := p.Curve.Baseline, p.Curve.Candidate
			codes := make([]string, len(p.Causes))
			for i, x := range p.Causes {
				codes[i] = string(x.Code)
			}
			t.rows = append(t.rows, []any{e.ID, p.Label, p.MaxConcurrency, p.RequestRate,
				p.Repeats.Baseline, p.Repeats.Candidate, string(p.Status), strings.Join(codes, ", "),
				p.Deltas[model.TTFT].Delta, p.Deltas[model.TPOT].Delta, p.Deltas[model.ITL].Delta,
				b.Throughput.Median, b.Throughput.Min, b.Throughput.Max,
				c.Throughput.Median, c.Throughput.Min, c.Throughput.Max,
				b.TTFTP50.Median, b.TTFTP99.Median, c.TTFTP50.Median, c.TTFTP99.Median,
				b.TPOTP50.Median, b.TPOTP99.Median, c.TPOTP50.Median, c.TPOTP99.Median,
				p.Deltas[model.Throughput].Delta})
		}
		sp.last = len(t.rows) + 1
		spans = append(spans, sp)
	}
	return t, spans
}

// writeCellTable writes a small table cell by cell, with the styles writeTable gives: a
// streamed sheet could not carry the charts drawn on it afterwards.
func writeCellTable(f *excelize.File, st *styles, t *table) error {
	for i, c := range t.cols {
		ref, _ := excelize.CoordinatesToCellName(i+1, 1)
		if err := f.SetCellStr(t.sheet, ref, c.name); err != nil {
			return err
		}
		if err := f.SetCellStyle(t.sheet, ref, ref, st.header); err != nil {
			return err
		}
		w := c.width
		if w == 0 {
			w = min(max(float64(len(c.name))*0.9+2, 10), 42)
		}
		col, _ := excelize.ColumnNumberToName(i + 1)
		if err := f.SetColWidth(t.sheet, col, col, w); err != nil {
			return err
		}
	}
	for r, row := range t.rows {
		for i, v := range row {
			k := t.cols[i].kind
			v = cellValue(v)
			if v == nil {
				continue
			}
			ref, _ := excelize.CoordinatesToCellName(i+1, r+2)
			if err := f.SetCellValue(t.sheet, ref, v); err != nil {
				return err
			}
			if s := st.style(k, v); s != 0 {
				if err := f.SetCellStyle(t.sheet, ref, ref, s); err != nil {
					return err
				}
			}
		}
	}
	if err := f.SetPanes(t.sheet, &excelize.Panes{Freeze: true, XSplit: 2, YSplit: 1, TopLeftCell: "C2", ActivePane: "bottomRight"}); err != nil {
		return err
	}
	last, _ := excelize.CoordinatesToCellName(len(t.cols), max(len(t.rows)+1, 2))
	return f.AutoFilter(t.sheet, "A1:"+last, nil)
}

// loadPointCharts draws, under the table, per comparison: output tok/s against TTFT p50 and
// against TPOT p50, one line with a marker per point for each arm.
func loadPointCharts(f *excelize.File, st *styles, spans []rowSpan, tableRows int) error {
	const blockRows = 17
	for i, sp := range spans {
		top := tableRows + 3 + i*blockRows
		ref, _ := excelize.CoordinatesToCellName(1, top)
		head := fmt.Sprintf("#%d %s: %s", sp.entry.ID, title(sp.entry), sp.entry.Status())
		if sp.entry.Status() != sp.entry.Record.Status {
			head += fmt.Sprintf(" (analyst; proposed: %s)", sp.entry.Record.Status)
		}
		if h := sp.entry.Record.HoldsUnder; h != "" {
			head += " (" + h + ")"
		}
		if err := f.SetCellStr(SheetLoadPoints, ref, head); err != nil {
			return err
		}
		if err := f.SetCellStyle(SheetLoadPoints, ref, ref, st.title); err != nil {
			return err
		}
		for j, m := range []struct {
			name       string
			base, cand int
		}{{"TTFT p50 (ms)", lpBaseTTFT, lpCandTTFT}, {"TPOT p50 (ms)", lpBaseTPOT, lpCandTPOT}} {
			cell, _ := excelize.CoordinatesToCellName(1+8*j, top+1)
			if err := curveChart(f, cell, m.name, sp, m.base, m.cand); err != nil {
				return err
			}
		}
	}
	return nil
}

// curveChart is one latency against output throughput for both arms, as scatter lines.
func curveChart(f *excelize.File, cell, metric string, sp rowSpan, baseCol, candCol int) error {
	ch := &excelize.Chart{
		Type:      excelize.Scatter,
		Dimension: excelize.ChartDimension{Width: 480, Height: 300},
		Title:     chartTitle("output tok/s against " + metric + ", per load point"),
		Legend:    excelize.ChartLegend{Position: "bottom"},
		XAxis:     excelize.ChartAxis{Title: chartTitle("output tok/s"), MajorGridLines: true, NumFmt: excelize.ChartNumFmt{CustomNumFmt: "0"}},
		YAxis:     excelize.ChartAxis{Title: chartTitle(metric), MajorGridLines: true, Minimum: ptr(0.0)},
	}
	for _, s := range []struct {
		tokCol, yCol int
		color        string
	}{{lpBaseTokS, baseCol, "7F7F7F"}, {lpCandTokS, candCol, "2F75B5"}} {
		fill := excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{s.color}}
		ch.Series = append(ch.Series, excelize.ChartSeries{
			Name:       sheetRange(SheetLoadPoints, s.yCol, 1, 1), // the header: LibreOffice ignores literal names
			Categories: sheetRange(SheetLoadPoints, s.tokCol, sp.first, sp.last),
			Values:     sheetRange(SheetLoadPoints, s.yCol, sp.first, sp.last),
			Line:       excelize.LineOptions{Type: excelize.LineSolid, Width: 1.75, Fill: fill},
			Marker:     excelize.ChartMarker{Symbol: "circle", Size: 6, Fill: fill},
		})
	}
	return f.AddChart(SheetLoadPoints, cell, ch)
}
