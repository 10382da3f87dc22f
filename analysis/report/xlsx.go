package report

import (
	"fmt"
	"io"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"benchlens/analysis/compare"
	"benchlens/analysis/history"
	"benchlens/model"
)

// XLSXOptions tunes the workbook.
type XLSXOptions struct {
	// Requests adds a Requests sheet with one row per request of every run (streamed, so
	// large runs fit; Excel's row limit still applies and is noted when hit).
	Requests bool
	// Charts is how many comparisons get charts, from the first: 0 means DefaultCharts,
	// a negative number none.
	Charts int
	// History adds a History sheet: the series the compared runs belong to, each with its
	// change points and runs, and a native line chart of each stage metric.
	History []history.Report
}

// DefaultCharts is the number of comparisons charted when XLSXOptions.Charts is 0.
const DefaultCharts = 20

// Sheet names.
const (
	SheetVerdicts   = "Verdicts"
	SheetCharts     = "Charts"
	SheetStages     = "Stages"
	SheetConditions = "Conditions"
	SheetEvidence   = "Evidence"
	SheetRuns       = "Runs"
	SheetRecord     = "Record"
	SheetRequests   = "Requests"
	SheetCDF        = "CDF data"
)

// Status fill colours (Excel's good / neutral / bad palette).
var statusFill = map[model.Status]string{
	model.Established:    "C6EFCE", // green
	model.Zero:           "D9D9D9", // grey
	model.Offset:         "FFEB9C", // amber
	model.NotEstablished: "FFC7CE", // red
}

// stateFill colours condition, check and overhead states.
var stateFill = map[string]string{
	string(model.ConditionSame): "C6EFCE", string(model.CheckOK): "C6EFCE", "measured": "C6EFCE",
	string(model.ConditionUnknown): "FFEB9C", string(model.CheckWarn): "FFEB9C", "unmeasured": "FFEB9C",
	string(model.ConditionDiffers): "FFC7CE", string(model.CheckFail): "FFC7CE", "grew": "FFC7CE",
}

// Number formats with their units. Percent values are already in % (so no Excel "%", which
// would multiply by 100); p shows four significant digits across its range.
var numFmts = map[kind]string{
	kInt:   "0",
	kMS:    `0.00" ms"`,
	kPct:   `+0.00"%";-0.00"%";0.00"%"`,
	kP:     `[<0.01]0.000E+00;[<0.1]0.00000;0.0000`,
	kTokS:  `0.00" tok/s"`,
	kReqS:  `0.00" req/s"`,
	kDate:  "yyyy-mm-dd hh:mm:ss",
	kShare: "0.0%",
	kPP:    `+0.0" pp";-0.0" pp";0.0" pp"`,
}

// maxSheetRows is Excel's row limit.
const maxSheetRows = 1048576

type styles struct {
	header, title int
	byKind        map[kind]int
	status        map[model.Status]int
	state         map[string]int
	// rows holds the tables written by rowsXML, by sheet part, for the zipper to splice in.
	rows map[string][]byte
}

func newStyles(f *excelize.File) (*styles, error) {
	s := &styles{byKind: map[kind]int{}, status: map[model.Status]int{}, state: map[string]int{}, rows: map[string][]byte{}}
	var err error
	if s.header, err = f.NewStyle(&excelize.Style{
		Font:      &excelize.Font{Bold: true},
		Fill:      excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"D9E1F2"}},
		Border:    []excelize.Border{{Type: "bottom", Color: "8EA9DB", Style: 1}},
		Alignment: &excelize.Alignment{Vertical: "center"},
	}); err != nil {
		return nil, err
	}
	if s.title, err = f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true, Size: 12}}); err != nil {
		return nil, err
	}
	// In a fixed order, so one export writes the same workbook every time.
	for _, k := range slices.Sorted(maps.Keys(numFmts)) {
		code := numFmts[k]
		if s.byKind[k], err = f.NewStyle(&excelize.Style{CustomNumFmt: &code}); err != nil {
			return nil, err
		}
	}
	fill := func(color string) (int, error) {
		return f.NewStyle(&excelize.Style{Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{color}}})
	}
	for _, st := range slices.Sorted(maps.Keys(statusFill)) {
		if s.status[st], err = fill(statusFill[st]); err != nil {
			return nil, err
		}
	}
	for _, st := range slices.Sorted(maps.Keys(stateFill)) {
		if s.state[st], err = fill(stateFill[st]); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// style is a cell's style: its number format, or its state colour.
func (s *styles) style(k kind, v any) int {
	v = untyped(v)
	switch k {
	case kStatus:
		if str, ok := v.(string); ok {
			return s.status[model.Status(str)]
		}
		return 0
	case kState:
		if str, ok := v.(string); ok {
			return s.state[str]
		}
		return 0
	}
	if _, isString := v.(string); isString {
		return 0
	}
	return s.byKind[k]
}

// cellOf is a table value of the column as a cell's value and style: a cell{} brings its own
// kind.
func (s *styles) cellOf(col column, v any) (any, int) {
	k := col.kind
	if c, ok := v.(cell); ok {
		v, k = c.v, c.k
	}
	v = cellValue(v)
	return v, s.style(k, v)
}

// cellValue makes a table value fit for a cell: numbers stay numbers, every string is
// written as text (an inline string, never a formula) whatever it starts with.
func cellValue(v any) any {
	switch x := untyped(v).(type) {
	case model.Num:
		return num(x)
	case string:
		if x == "" {
			return nil
		}
		return clip(x)
	}
	return v
}

// untyped turns a value of a named string type (model.Status, model.CheckState, model.Era …)
// into its string, so every writer treats the closed sets as the text they are.
func untyped(v any) any {
	switch v.(type) {
	case nil, string, float64, int, int64, bool:
		return v
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.String {
		return rv.String()
	}
	return v
}

// clip keeps a string within Excel's 32767-character cell limit.
func clip(s string) string {
	const limit = 32000
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + " …(truncated)"
}

// XLSX writes the entries as one workbook: Verdicts, Charts, Stages, Conditions, Evidence,
// Families (when a comparison has profiler traces), Runs, Reproduce, optionally Requests, and
// CDF data; the document properties name the benchlens that wrote it. Every table has a
// styled, frozen header row and an autofilter; numbers carry their units in the number format. Strings are always written as
// text, never as formulas, so a note such as =HYPERLINK(…) stays inert.
func XLSX(w io.Writer, entries []Entry, opt XLSXOptions) error {
	f := excelize.NewFile()
	defer f.Close()
	st, err := newStyles(f)
	if err != nil {
		return err
	}
	f.SetZipWriter(func(w io.Writer) excelize.ZipWriter { return newZipper(w, st.rows) })
	nCharts := opt.Charts
	if nCharts == 0 {
		nCharts = DefaultCharts
	}
	nCharts = max(0, min(nCharts, len(entries)))

	names := []string{SheetVerdicts}
	if nCharts > 0 {
		names = append(names, SheetCharts)
	}
	names = append(names, SheetStages)
	if hasLoadPoints(entries) {
		names = append(names, SheetLoadPoints)
	}
	if hasSLO(entries) {
		names = append(names, SheetSLO)
	}
	if len(opt.History) > 0 {
		names = append(names, SheetHistory)
	}
	names = append(names, SheetConditions, SheetEvidence)
	if hasFamilies(entries) {
		names = append(names, SheetFamilies)
	}
	names = append(names, SheetRuns, SheetReproduce, SheetRecord)
	if opt.Requests {
		names = append(names, SheetRequests)
	}
	if nCharts > 0 {
		names = append(names, SheetCDF, SheetChartData)
	}
	if err := f.SetSheetName("Sheet1", names[0]); err != nil {
		return err
	}
	for _, n := range names[1:] {
		if _, err := f.NewSheet(n); err != nil {
			return err
		}
	}

	stagesT, spans := stagesTableSpans(entries)
	for _, t := range []*table{verdictsTable(entries), stagesT, conditionsTable(entries), evidenceTable(entries), runsTable(entries), reproduceTable(entries), recordTable(entries)} {
		freezeCols := 0
		if t.sheet == SheetVerdicts {
			freezeCols = 1
		}
		if err := writeTable(f, st, t, freezeCols); err != nil {
			return fmt.Errorf("sheet %s: %w", t.sheet, err)
		}
	}
	if hasLoadPoints(entries) {
		lp, spans := loadPointsTable(entries)
		if err := writeCellTable(f, st, lp); err != nil {
			return fmt.Errorf("sheet %s: %w", SheetLoadPoints, err)
		}
		if err := loadPointCharts(f, st, spans, len(lp.rows)+1); err != nil {
			return fmt.Errorf("sheet %s: %w", SheetLoadPoints, err)
		}
	}
	if hasSLO(entries) {
		t, spans := sloTable(entries)
		if err := writeCellTable(f, st, t); err != nil {
			return fmt.Errorf("sheet %s: %w", SheetSLO, err)
		}
		if err := sloCharts(f, st, spans, len(t.rows)+1); err != nil {
			return fmt.Errorf("sheet %s: %w", SheetSLO, err)
		}
	}
	if len(opt.History) > 0 {
		if err := writeHistories(f, opt.History); err != nil {
			return fmt.Errorf("sheet %s: %w", SheetHistory, err)
		}
	}
	if hasFamilies(entries) {
		if err := writeFamilies(f, st, entries, nCharts); err != nil {
			return fmt.Errorf("sheet %s: %w", SheetFamilies, err)
		}
	}
	if opt.Requests {
		if err := writeRequests(f, st, entries); err != nil {
			return fmt.Errorf("sheet %s: %w", SheetRequests, err)
		}
	}
	if nCharts > 0 {
		if err := writeCharts(f, st, entries[:nCharts], spans); err != nil {
			return fmt.Errorf("sheet %s: %w", SheetCharts, err)
		}
	}
	if len(entries) > 0 && entries[0].Benchlens.Version != "" {
		v := entries[0].Benchlens
		if err := f.SetDocProps(&excelize.DocProperties{Creator: "benchlens", Title: "benchlens comparisons",
			Description: "Written by " + v.String(), Version: v.Version, Identifier: v.Commit}); err != nil {
			return err
		}
	}
	_, err = f.WriteTo(w)
	return err
}

// streamTable starts a streamed sheet: column widths, frozen header, header row, autofilter.
func streamTable(f *excelize.File, st *styles, sheet string, cols []column, freezeCols, rows int) (*excelize.StreamWriter, error) {
	sw, err := f.NewStreamWriter(sheet)
	if err != nil {
		return nil, err
	}
	// Widths are set per run of equal widths: each call costs as much as the columns set so far.
	widths := make([]float64, len(cols))
	for i, c := range cols {
		widths[i] = c.width
		if widths[i] == 0 { // from the header, in steps of 6 so neighbours share a width
			widths[i] = math.Ceil(min(max(float64(len(c.name))*0.9+2, 10), 42)/6) * 6
		}
	}
	for i := 0; i < len(widths); {
		j := i
		for j+1 < len(widths) && widths[j+1] == widths[i] {
			j++
		}
		if err := sw.SetColWidth(i+1, j+1, widths[i]); err != nil {
			return nil, err
		}
		i = j + 1
	}
	topLeft, _ := excelize.CoordinatesToCellName(freezeCols+1, 2)
	if err := sw.SetPanes(&excelize.Panes{Freeze: true, XSplit: freezeCols, YSplit: 1, TopLeftCell: topLeft, ActivePane: activePane(freezeCols)}); err != nil {
		return nil, err
	}
	header := make([]any, len(cols))
	for i, c := range cols {
		header[i] = excelize.Cell{StyleID: st.header, Value: c.name}
	}
	if err := sw.SetRow("A1", header, excelize.RowOpts{Height: 18}); err != nil {
		return nil, err
	}
	last, _ := excelize.CoordinatesToCellName(len(cols), max(rows+1, 2))
	if err := f.AutoFilter(sheet, "A1:"+last, nil); err != nil {
		return nil, err
	}
	return sw, nil
}

func activePane(freezeCols int) string {
	if freezeCols > 0 {
		return "bottomRight"
	}
	return "bottomLeft"
}

// writeTable streams a table into its sheet.
func writeTable(f *excelize.File, st *styles, t *table, freezeCols int) error {
	sw, err := streamTable(f, st, t.sheet, t.cols, freezeCols, len(t.rows))
	if err != nil {
		return err
	}
	if rows, ok := rowsXML(st, t); ok && rowsAsXML {
		part, err := sheetPart(f, t.sheet)
		if err != nil {
			return err
		}
		st.rows[part] = rows
		return sw.Flush()
	}
	buf := make([]any, len(t.cols))
	for r, row := range t.rows {
		for i := range buf {
			buf[i] = nil
		}
		for i, v := range row[:min(len(row), len(t.cols))] {
			if v, s := st.cellOf(t.cols[i], v); s != 0 {
				buf[i] = excelize.Cell{StyleID: s, Value: v}
			} else {
				buf[i] = v
			}
		}
		ref, _ := excelize.CoordinatesToCellName(1, r+2)
		if err := sw.SetRow(ref, buf); err != nil {
			return err
		}
	}
	return sw.Flush()
}

// writeRequests streams every request of every run, each run once.
func writeRequests(f *excelize.File, st *styles, entries []Entry) error {
	runs := uniqueRuns(entries)
	total := 0
	for _, r := range runs {
		total += len(r.Requests)
	}
	room := maxSheetRows - 2 // the header and a possible truncation note
	sw, err := streamTable(f, st, SheetRequests, requestCols, 0, min(total, room))
	if err != nil {
		return err
	}
	buf := make([]any, len(requestCols))
	row := 2
	for _, r := range runs {
		for i := range r.Requests {
			if row-1 > room {
				ref, _ := excelize.CoordinatesToCellName(1, row)
				if err := sw.SetRow(ref, []any{fmt.Sprintf("truncated: Excel holds %d rows; %d requests left out (use the CSV or the database)", maxSheetRows, total-room)}); err != nil {
					return err
				}
				return sw.Flush()
			}
			for j, v := range requestRow(r.ID, i, &r.Requests[i]) {
				v = cellValue(v)
				if s := st.style(requestCols[j].kind, v); s != 0 {
					buf[j] = excelize.Cell{StyleID: s, Value: v}
				} else {
					buf[j] = v
				}
			}
			ref, _ := excelize.CoordinatesToCellName(1, row)
			if err := sw.SetRow(ref, buf); err != nil {
				return err
			}
			row++
		}
	}
	return sw.Flush()
}

// cdfCols: the chart series take their names from the series column, so no label is ever
// written into a chart formula.
var cdfCols = []column{{"comparison", kInt, 11}, {"metric", kText, 8}, {"arm", kText, 10}, {"series", kText, 24}, {"probability", kNum, 11}, {"value_ms", kMS, 12}}

// cdfSeries is where one arm's CDF of one metric sits in the CDF data sheet.
type cdfSeries struct {
	arm         string
	first, last int
}

// sheetRange is an absolute reference to rows first..last of one column.
func sheetRange(sheet string, col, first, last int) string {
	c, _ := excelize.ColumnNumberToName(col)
	quoted := "'" + strings.ReplaceAll(sheet, "'", "''") + "'"
	if first == last {
		return fmt.Sprintf("%s!$%s$%d", quoted, c, first)
	}
	return fmt.Sprintf("%s!$%s$%d:$%s$%d", quoted, c, first, c, last)
}

// cdfMetrics are the latencies whose CDFs the Charts sheet draws per comparison: one of
// prefill, one of decode.
var cdfMetrics = []string{model.TTFT, model.TPOT}

// chartBlockRows is the height of one comparison's block on the Charts sheet: two rows of
// 300 px charts (15 rows of the default 20 px each).
const chartBlockRows = 36

// writeCharts writes the CDF and chart data sheets and, per comparison, its stage deltas
// coloured by outcome with their intervals, the spread of its runs, and the TTFT and TPOT CDFs
// of both arms, two charts by two on one printed page.
func writeCharts(f *excelize.File, st *styles, entries []Entry, spans []stageSpan) error {
	// CDF points first, so the charts can point at them.
	type key struct {
		entry  int
		metric string
	}
	series := map[key][]cdfSeries{}
	var rows [][]any
	for i, e := range entries {
		for _, m := range cdfMetrics {
			for _, side := range []struct {
				arm string
				a   compare.ArmInfo
			}{{"baseline", e.Record.Arms.Baseline}, {"candidate", e.Record.Arms.Candidate}} {
				vals, probs := cdf(armSamples(e, side.a.Runs, m))
				if len(vals) == 0 {
					continue
				}
				first := len(rows) + 2
				label := side.arm
				if side.a.Label != "" {
					label += " (" + side.a.Label + ")"
				}
				for j := range vals {
					rows = append(rows, []any{e.ID, m, side.arm, label, probs[j], vals[j]})
				}
				series[key{i, m}] = append(series[key{i, m}], cdfSeries{side.arm, first, len(rows) + 1})
			}
		}
	}
	if err := writeTable(f, st, &table{sheet: SheetCDF, cols: cdfCols, rows: rows}, 0); err != nil {
		return err
	}
	dataRows, dataSpans := chartData(entries)
	if err := writeTable(f, st, &table{sheet: SheetChartData, cols: chartDataCols, rows: dataRows}, 0); err != nil {
		return err
	}

	if err := f.SetColWidth(SheetCharts, "A", "A", 12); err != nil {
		return err
	}
	// One comparison per printed page, landscape, as wide as the page: a chart never breaks
	// across pages.
	if err := f.SetPageLayout(SheetCharts, &excelize.PageLayoutOptions{
		Orientation: ptr("landscape"), FitToWidth: ptr(1), FitToHeight: ptr(0)}); err != nil {
		return err
	}
	if err := f.SetSheetProps(SheetCharts, &excelize.SheetPropsOptions{FitToPage: ptr(true)}); err != nil {
		return err
	}
	const chartRows = 17
	for i, e := range entries {
		top := 1 + i*chartBlockRows
		if i > 0 {
			ref, _ := excelize.CoordinatesToCellName(1, top)
			if err := f.InsertPageBreak(SheetCharts, ref); err != nil {
				return err
			}
		}
		head := fmt.Sprintf("#%d %s: %s", e.ID, title(e), e.Status())
		if e.Status() != e.Record.Status {
			head += fmt.Sprintf(" (analyst; proposed: %s)", e.Record.Status)
		}
		head += " — " + HeadlineOf(e.Record).String()
		ref, _ := excelize.CoordinatesToCellName(1, top)
		if err := f.SetCellStr(SheetCharts, ref, head); err != nil {
			return err
		}
		if err := f.SetCellStyle(SheetCharts, ref, ref, st.title); err != nil {
			return err
		}
		at := func(col, row int) string {
			c, _ := excelize.CoordinatesToCellName(col, top+1+row*chartRows)
			return c
		}
		if sp := spans[i]; sp.last >= sp.first {
			if err := colouredDeltaChart(f, at(1, 0), dataSpans[i].bars, sp); err != nil {
				return err
			}
		}
		if ds := dataSpans[i]; ds.spreadBase.last >= ds.spreadBase.first && ds.spreadCand.last >= ds.spreadCand.first {
			if err := spreadChart(f, at(9, 0), ds); err != nil {
				return err
			}
		}
		for j, m := range cdfMetrics {
			if s := series[key{i, m}]; len(s) > 0 {
				if err := cdfChart(f, at(1+8*j, 1), m, s, len(e.Record.LoadPoints)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func chartTitle(s string) excelize.ChartTitle {
	return excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: s, Font: &excelize.Font{Bold: true, Size: 11}}}}
}

// cdfChart draws one metric's CDF per arm as scatter lines; the title says when the arms'
// samples pool the load points of a sweep (pooled > 1).
func cdfChart(f *excelize.File, cell, metric string, s []cdfSeries, pooled int) error {
	colors := map[string]string{"baseline": "7F7F7F", "candidate": "2F75B5"}
	name := strings.ToUpper(metric) + " CDF per arm"
	if pooled > 1 {
		name += fmt.Sprintf(", pooled over %d load points", pooled)
	}
	ch := &excelize.Chart{
		Type:      excelize.Scatter,
		Dimension: excelize.ChartDimension{Width: 480, Height: 300},
		Title:     chartTitle(name),
		Legend:    excelize.ChartLegend{Position: "bottom"},
		XAxis:     excelize.ChartAxis{Title: chartTitle(metric + " (ms)"), MajorGridLines: true, NumFmt: excelize.ChartNumFmt{CustomNumFmt: "0.0"}},
		YAxis:     excelize.ChartAxis{Title: chartTitle("fraction of requests"), MajorGridLines: true, Minimum: ptr(0.0), Maximum: ptr(1.0)},
	}
	for _, x := range s {
		ch.Series = append(ch.Series, excelize.ChartSeries{
			Name:       sheetRange(SheetCDF, 4, x.first, x.first),
			Categories: sheetRange(SheetCDF, 6, x.first, x.last),
			Values:     sheetRange(SheetCDF, 5, x.first, x.last),
			Line:       excelize.LineOptions{Type: excelize.LineSolid, Width: 1.75, Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{colors[x.arm]}}},
			Marker:     excelize.ChartMarker{Symbol: "none"},
		})
	}
	return f.AddChart(SheetCharts, cell, ch)
}

func ptr[T any](v T) *T { return &v }
