package report

import (
	"archive/zip"
	"benchlens/internal/armtest"
	"bytes"
	"context"
	"fmt"
	"html"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"benchlens/analysis/compare"
	"benchlens/internal/cputime"
	"benchlens/model"
)

func exportXLSX(t testing.TB, entries []Entry, opt XLSXOptions) ([]byte, *excelize.File) {
	t.Helper()
	var buf bytes.Buffer
	if err := XLSX(&buf, entries, opt); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return buf.Bytes(), f
}

// header maps a sheet's header names to 1-based column numbers.
func header(t *testing.T, f *excelize.File, sheet string) map[string]int {
	t.Helper()
	rows, err := f.GetRows(sheet)
	if err != nil || len(rows) == 0 {
		t.Fatalf("%s: %v", sheet, err)
	}
	out := map[string]int{}
	for i, h := range rows[0] {
		out[h] = i + 1
	}
	return out
}

func ref(col, row int) string {
	s, _ := excelize.CoordinatesToCellName(col, row)
	return s
}

func raw(t *testing.T, f *excelize.File, sheet string, col, row int) string {
	t.Helper()
	v, err := f.GetCellValue(sheet, ref(col, row), excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func fillOf(t *testing.T, f *excelize.File, sheet, cell string) string {
	t.Helper()
	id, err := f.GetCellStyle(sheet, cell)
	if err != nil {
		t.Fatal(err)
	}
	st, err := f.GetStyle(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Fill.Color) == 0 {
		return ""
	}
	return st.Fill.Color[0]
}

func numFmtOf(t *testing.T, f *excelize.File, sheet, cell string) string {
	t.Helper()
	id, _ := f.GetCellStyle(sheet, cell)
	st, err := f.GetStyle(id)
	if err != nil {
		t.Fatal(err)
	}
	if st.CustomNumFmt == nil {
		return ""
	}
	return *st.CustomNumFmt
}

func zipFiles(t *testing.T, data []byte) map[string]string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, zf := range zr.File {
		rc, err := zf.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		out[zf.Name] = string(b)
	}
	return out
}

func TestXLSXWorkbook(t *testing.T) {
	entries := testEntries(t)
	data, f := exportXLSX(t, entries, XLSXOptions{})

	wantSheets := []string{SheetVerdicts, SheetCharts, SheetStages, SheetConditions, SheetEvidence, SheetRuns, SheetReproduce, SheetRecord, SheetCDF, SheetChartData}
	if got := f.GetSheetList(); !slices.Equal(got, wantSheets) {
		t.Fatalf("sheets %v, want %v", got, wantSheets)
	}

	// Verdicts: one row per comparison, dotted record columns, the analyst's columns.
	h := header(t, f, SheetVerdicts)
	for _, c := range []string{"comparison", "status", "proposed_status", "causes",
		"perf.tpot.delta_pct", "perf.ttft.p", "perf.tpot.baseline", "analyst.note", "analyst.tags", "analyst.status_override",
		"analyst.override_reason", "analyst.author", "analyst.at"} {
		if h[c] == 0 {
			t.Errorf("Verdicts lacks column %s", c)
		}
	}
	rows, _ := f.GetRows(SheetVerdicts)
	if len(rows) != 1+len(entries) {
		t.Fatalf("Verdicts has %d rows", len(rows))
	}
	wantFill := map[model.Status]string{model.Established: "C6EFCE", model.Zero: "D9D9D9", model.Offset: "FFEB9C", model.NotEstablished: "FFC7CE"}
	for i, e := range entries {
		row := i + 2
		if got := raw(t, f, SheetVerdicts, h["comparison"], row); got != strconv.FormatInt(e.ID, 10) {
			t.Errorf("row %d: comparison %s", row, got)
		}
		if got := raw(t, f, SheetVerdicts, h["status"], row); got != string(e.Status()) {
			t.Errorf("row %d: status %s, want the standing %s", row, got, e.Status())
		}
		if got := raw(t, f, SheetVerdicts, h["proposed_status"], row); got != string(e.Record.Status) {
			t.Errorf("row %d: proposed status %s", row, got)
		}
		if got := fillOf(t, f, SheetVerdicts, ref(h["status"], row)); got != wantFill[e.Status()] {
			t.Errorf("row %d: status %s filled %q, want %q", row, e.Status(), got, wantFill[e.Status()])
		}
		d := e.Record.Perf[model.TPOT].Delta.F()
		got, err := strconv.ParseFloat(raw(t, f, SheetVerdicts, h["perf.tpot.delta_pct"], row), 64)
		if err != nil || math.Abs(got-d) > 1e-9 {
			t.Errorf("row %d: tpot delta %v, want %v (%v)", row, got, d, err)
		}
		if len(e.Record.Causes) == 1 && !strings.Contains(raw(t, f, SheetVerdicts, h["causes"], row), string(e.Record.Causes[0].Code)) {
			t.Errorf("row %d: causes %q", row, raw(t, f, SheetVerdicts, h["causes"], row))
		}
	}
	// Numbers and dates are stored as numbers and dates, not text.
	if typ, _ := f.GetCellType(SheetVerdicts, ref(h["saved_at"], 2)); typ == excelize.CellTypeInlineString || typ == excelize.CellTypeSharedString {
		t.Errorf("saved_at stored as text (%v)", typ)
	}
	if v, _ := f.GetCellValue(SheetVerdicts, ref(h["saved_at"], 2)); v != "2025-06-02 09:00:00" {
		t.Errorf("saved_at shows %q, want a date", v)
	}
	condCols := header(t, f, SheetConditions)
	condRows, _ := f.GetRows(SheetConditions)
	for i, r := range condRows {
		if len(r) > condCols["field"]-1 && r[condCols["field"]-1] == "workload.num_prompts" {
			if typ, _ := f.GetCellType(SheetConditions, ref(condCols["baseline"], i+1)); typ == excelize.CellTypeInlineString || typ == excelize.CellTypeSharedString {
				t.Errorf("condition %s stored as text", r[condCols["field"]-1])
			}
			break
		}
	}
	// Verdicts is a summary to read across; every key of every record is on Record.
	if cols, _ := f.GetCols(SheetVerdicts); len(cols) > 40 {
		t.Errorf("Verdicts is %d columns wide", len(cols))
	}
	recRows, _ := f.GetRows(SheetRecord)
	driver := ""
	for _, r := range recRows {
		if len(r) == 3 && r[0] == "1" && r[1] == "stack_fingerprint.driver_version.baseline" {
			driver = r[2]
		}
	}
	if driver != "550.54.15" {
		t.Errorf("Record: driver %q", driver)
	}
	if got := fillOf(t, f, SheetVerdicts, ref(h["analyst.status_override"], 2)); got != wantFill[model.Offset] {
		t.Errorf("override fill %q", got)
	}
	if got := numFmtOf(t, f, SheetVerdicts, ref(h["perf.tpot.delta_pct"], 2)); got != numFmts[kPct] {
		t.Errorf("delta format %q", got)
	}
	if got := numFmtOf(t, f, SheetVerdicts, ref(h["perf.tpot.baseline"], 2)); got != numFmts[kMS] {
		t.Errorf("ms format %q", got)
	}
	if got := numFmtOf(t, f, SheetVerdicts, ref(h["perf.tpot.p"], 2)); got != numFmts[kP] {
		t.Errorf("p format %q", got)
	}
	if got, _ := f.GetCellValue(SheetVerdicts, ref(h["perf.tpot.baseline"], 2)); !strings.HasSuffix(got, " ms") {
		t.Errorf("formatted ms value %q", got)
	}
	if id, _ := f.GetCellStyle(SheetVerdicts, "A1"); id == 0 {
		t.Error("header unstyled")
	} else if st, _ := f.GetStyle(id); st.Font == nil || !st.Font.Bold || len(st.Fill.Color) == 0 {
		t.Errorf("header style %+v", st)
	}

	// Formula injection: user text that looks like a formula stays text.
	for _, c := range []struct {
		sheet string
		cell  string
		want  string
	}{
		{SheetVerdicts, ref(h["analyst.note"], 2), injection},
		{SheetVerdicts, ref(h["analyst.tags"], 2), "decode, +1"},
		{SheetVerdicts, ref(h["analyst.override_reason"], 2), "@ops: second look at the copies"},
		{SheetVerdicts, ref(h["candidate"], 5), "-fallback"},
	} {
		if fm, err := f.GetCellFormula(c.sheet, c.cell); err != nil || fm != "" {
			t.Errorf("%s!%s has formula %q (%v)", c.sheet, c.cell, fm, err)
		}
		if v, _ := f.GetCellValue(c.sheet, c.cell); v != c.want {
			t.Errorf("%s!%s = %q, want %q", c.sheet, c.cell, v, c.want)
		}
		if typ, _ := f.GetCellType(c.sheet, c.cell); typ != excelize.CellTypeInlineString && typ != excelize.CellTypeSharedString {
			t.Errorf("%s!%s type %v", c.sheet, c.cell, typ)
		}
	}
	files := zipFiles(t, data)
	for name, body := range files {
		if strings.HasPrefix(name, "xl/worksheets/") && strings.Contains(body, "<f>") {
			t.Errorf("%s holds a formula", name)
		}
	}

	// Frozen header and an autofilter on every table.
	names, _ := f.GetDefinedName(), 0
	for _, sheet := range []string{SheetVerdicts, SheetStages, SheetConditions, SheetEvidence, SheetRuns, SheetCDF} {
		p, err := f.GetPanes(sheet)
		if err != nil || !p.Freeze || p.YSplit != 1 {
			t.Errorf("%s panes %+v %v", sheet, p, err)
		}
		found := false
		for _, dn := range names {
			found = found || dn.Name == "_xlnm._FilterDatabase" && dn.Scope == sheet && strings.HasPrefix(dn.RefersTo, "'"+sheet+"'!$A$1:")
		}
		if !found {
			t.Errorf("%s has no autofilter (%+v)", sheet, names)
		}
	}
	if p, _ := f.GetPanes(SheetVerdicts); p.XSplit != 1 {
		t.Errorf("Verdicts should freeze the comparison column: %+v", p)
	}
	if w, _ := f.GetColWidth(SheetVerdicts, "G"); w < 30 {
		t.Errorf("causes column width %v", w)
	}

	// Stages: the "all" rows come from Perf, the buckets from Buckets.Rows.
	sh := header(t, f, SheetStages)
	srows, _ := f.GetRows(SheetStages)
	var all, buckets int
	for r, row := range srows[1:] {
		if row[sh["comparison"]-1] != "1" {
			continue
		}
		switch row[sh["bucket"]-1] {
		case "all":
			all++
			if row[sh["metric"]-1] == model.TPOT {
				d := entries[0].Record.Perf[model.TPOT]
				got, _ := strconv.ParseFloat(raw(t, f, SheetStages, sh["ci_low_pct"], r+2), 64)
				if math.Abs(got-d.CILow.F()) > 1e-9 {
					t.Errorf("tpot ci low %v, want %v", got, d.CILow)
				}
				if got := numFmtOf(t, f, SheetStages, ref(sh["baseline"], r+2)); got != numFmts[kMS] {
					t.Errorf("tpot baseline format %q", got)
				}
				if raw(t, f, SheetStages, sh["significant"], r+2) != "1" {
					t.Errorf("tpot not significant: %v", row)
				}
			}
			if row[sh["metric"]-1] == "e2e_throughput" {
				if got := numFmtOf(t, f, SheetStages, ref(sh["baseline"], r+2)); got != numFmts[kTokS] {
					t.Errorf("throughput format %q", got)
				}
			}
		case "short", "long", "mixed":
			buckets++
		}
	}
	if all != len(entries[0].Record.Perf) || buckets == 0 {
		t.Errorf("stages for comparison 1: %d all, %d bucket rows", all, buckets)
	}

	// Conditions, Evidence and Runs.
	ch := header(t, f, SheetConditions)
	for _, c := range []string{"comparison", "field", "baseline", "candidate", "state", "required"} {
		if ch[c] == 0 {
			t.Errorf("Conditions lacks %s", c)
		}
	}
	crows, _ := f.GetRows(SheetConditions)
	found := false
	for r, row := range crows[1:] {
		if row[ch["field"]-1] == "stack_fingerprint.driver_version" && row[ch["comparison"]-1] == "1" {
			found = true
			if row[ch["state"]-1] != string(model.ConditionSame) || fillOf(t, f, SheetConditions, ref(ch["state"], r+2)) != "C6EFCE" {
				t.Errorf("driver condition %v", row)
			}
		}
	}
	if !found {
		t.Error("no driver_version condition")
	}
	eh := header(t, f, SheetEvidence)
	erows, _ := f.GetRows(SheetEvidence)
	kinds := map[string]int{}
	for _, row := range erows[1:] {
		if row[eh["comparison"]-1] == "4" {
			kinds[row[eh["kind"]-1]]++
		}
	}
	for _, k := range []string{"backend_line", "cause", "overhead", "utilisation", "checklist", "path"} {
		if kinds[k] == 0 {
			t.Errorf("Evidence of comparison 4 has no %s rows: %v", k, kinds)
		}
	}
	if kinds["checklist"] != 6 {
		t.Errorf("%d checklist rows", kinds["checklist"])
	}
	rh := header(t, f, SheetRuns)
	for _, c := range []string{"id", "label", "role", "tool", "era", "model", "date", "num_prompts", "completed", "failed",
		"output_throughput", "ttft.median", "ttft.p99", "tpot.median", "tpot.p99", "itl.median", "itl.p99", "files"} {
		if rh[c] == 0 {
			t.Errorf("Runs lacks %s", c)
		}
	}
	rrows, _ := f.GetRows(SheetRuns)
	if want := 1 + 4*10; len(rrows) != want {
		t.Errorf("Runs has %d rows, want %d", len(rrows), want)
	}
	if got := raw(t, f, SheetRuns, rh["ttft.median"], 2); got != "60" {
		t.Errorf("ttft median from the tool summary %q", got)
	}
	if got := raw(t, f, SheetRuns, rh["request_rate"], 2); got != "inf" {
		t.Errorf("infinite rate %q", got)
	}
	if got := raw(t, f, SheetRuns, rh["files"], 2); !strings.Contains(got, "server.log") {
		t.Errorf("files %q", got)
	}

	// Reproduce: per comparison and arm, the server and benchmark commands and 7 pins.
	ph := header(t, f, SheetReproduce)
	prows, _ := f.GetRows(SheetReproduce)
	count := map[string]int{}
	for _, row := range prows[1:] {
		kind, text := row[ph["kind"]-1], row[ph["command_or_value"]-1]
		count[kind]++
		if kind == "benchmark" && !strings.Contains(text, "--seed") {
			t.Errorf("benchmark command without --seed: %s", text)
		}
	}
	if count["server"] != 8 || count["benchmark"] != 8 || count["pin"] != 4*2*7 {
		t.Errorf("Reproduce rows by kind %v", count)
	}
	vh := header(t, f, SheetVerdicts)
	for name := range vh {
		if strings.HasPrefix(name, "reproduce") {
			t.Errorf("Verdicts flattens the recipe into %s", name)
		}
	}

	// Charts: four per comparison (stage deltas with intervals, spread, TTFT and TPOT CDFs;
	// the fixtures' comparisons all have per-run values).
	var charts []string
	for name := range files {
		if strings.HasPrefix(name, "xl/charts/chart") {
			charts = append(charts, name)
		}
	}
	if len(charts) != 4*len(entries) {
		t.Errorf("%d charts: %v", len(charts), charts)
	}
	if o, _ := f.GetPageLayout(SheetCharts); o.Orientation == nil || *o.Orientation != "landscape" {
		t.Error("the Charts sheet does not print landscape")
	}
	chartsXML := ""
	for name, body := range files {
		if strings.HasPrefix(name, "xl/worksheets/") && strings.Contains(body, "<drawing") && strings.Contains(body, "rowBreaks") {
			chartsXML = body
		}
	}
	if want := fmt.Sprintf(`<rowBreaks count="%d"`, len(entries)-1); !strings.Contains(chartsXML, want) {
		t.Errorf("Charts sheet lacks a page break before each comparison (%s)", want)
	}
	// Stage-delta bars in three colours (better, worse, not significant) from the chart data,
	// the intervals from the Stages sheet.
	c1 := html.UnescapeString(files["xl/charts/chart1.xml"])
	last := 1 + len(model.StageMetrics) // a row per stage metric below the header
	span := func(sheet, col string) string { return fmt.Sprintf("'%s'!$%s$2:$%s$%d", sheet, col, col, last) }
	for _, s := range []string{"<barChart>", "<lineChart>", "<hiLowLines", `<overlap val="100"`, "'Stages'!$M$1", span("Stages", "M"),
		span("Chart data", "D"), span("Chart data", "E"), span("Chart data", "F"), span("Chart data", "C"), barFills[0], barFills[1], barFills[2]} {
		if !strings.Contains(c1, s) {
			t.Errorf("chart1 lacks %s", s)
		}
	}
	if c2 := html.UnescapeString(files["xl/charts/chart2.xml"]); !strings.Contains(c2, "<scatterChart>") || !strings.Contains(c2, "'Chart data'!$H$") {
		t.Errorf("chart2 is not the spread: %.300s", c2)
	}
	if c3 := html.UnescapeString(files["xl/charts/chart3.xml"]); !strings.Contains(c3, "<scatterChart>") || !strings.Contains(c3, "'CDF data'!$F$2:$F$101") {
		t.Errorf("chart3 is not the TTFT CDF: %.300s", c3)
	}
	// Each bar's value is in exactly one of the three columns, as a number, by its outcome.
	isTrue := func(col string, r int) bool {
		v := raw(t, f, SheetStages, sh[col], r)
		return v == "1" || v == "TRUE" || v == "true"
	}
	for r := 2; r <= 6; r++ {
		sig, better, worse := isTrue("significant", r), isTrue("better", r), isTrue("worse", r)
		col := 6
		switch {
		case sig && better:
			col = 4
		case sig && worse:
			col = 5
		}
		for c := 4; c <= 6; c++ {
			v := raw(t, f, SheetChartData, c, r)
			if (c == col) != (v != "") {
				t.Errorf("chart data row %d column %d = %q (significant %v, better %v, worse %v)", r, c, v, sig, better, worse)
			}
		}
	}
	if v, _ := f.GetCellValue(SheetCharts, "A1"); !strings.HasPrefix(v, "#1 base vs fa-cand: offset (analyst; proposed: established)") {
		t.Errorf("chart title %q", v)
	}
	cdfRows, _ := f.GetRows(SheetCDF)
	if want := 1 + len(entries)*2*2*cdfPoints; len(cdfRows) != want {
		t.Errorf("CDF data has %d rows, want %d", len(cdfRows), want)
	}
	// A CDF rises from 0 to 1 over increasing values.
	prev := -1.0
	for r := 2; r <= 1+cdfPoints; r++ {
		v, _ := strconv.ParseFloat(raw(t, f, SheetCDF, 6, r), 64)
		if v < prev {
			t.Fatalf("CDF value decreases at row %d", r)
		}
		prev = v
	}
	if p, _ := f.GetCellValue(SheetCDF, ref(5, 1+cdfPoints)); p != "1" {
		t.Errorf("last probability %q", p)
	}
}

func TestXLSXRequestsAndNoCharts(t *testing.T) {
	entries := testEntries(t)[:2]
	_, f := exportXLSX(t, entries, XLSXOptions{Requests: true, Charts: -1})
	want := []string{SheetVerdicts, SheetStages, SheetConditions, SheetEvidence, SheetRuns, SheetReproduce, SheetRecord, SheetRequests}
	if got := f.GetSheetList(); !slices.Equal(got, want) {
		t.Fatalf("sheets %v", got)
	}
	h := header(t, f, SheetRequests)
	for _, c := range []string{"run", "index", "input_len", "output_len", "ttft_ms", "tpot_ms", "latency_ms", "error"} {
		if h[c] == 0 {
			t.Errorf("Requests lacks %s", c)
		}
	}
	rows, _ := f.GetRows(SheetRequests)
	total := len(uniqueRuns(entries)) * 120 // the baseline runs are shared: each run once
	if len(rows) != 1+total {
		t.Errorf("%d request rows, want %d", len(rows)-1, total)
	}
	q := entries[0].Runs[0].Requests[5]
	got, _ := strconv.ParseFloat(raw(t, f, SheetRequests, h["ttft_ms"], 7), 64)
	if math.Abs(got-q.TTFT*1e3) > 1e-9 {
		t.Errorf("ttft %v, want %v", got, q.TTFT*1e3)
	}
	if lat := raw(t, f, SheetRequests, h["latency_ms"], 7); lat == "" {
		t.Error("latency not derived from the gaps")
	}
	if p, _ := f.GetPanes(SheetRequests); !p.Freeze {
		t.Error("Requests header not frozen")
	}
}

func TestXLSXEmpty(t *testing.T) {
	_, f := exportXLSX(t, nil, XLSXOptions{Requests: true})
	if got := f.GetSheetList(); len(got) != 8 {
		t.Errorf("sheets %v", got)
	}
}

// The workbook opens in LibreOffice (when installed): converted headless to PDF.
func TestXLSXLibreOffice(t *testing.T) {
	lo, err := exec.LookPath("libreoffice")
	if err != nil {
		if lo, err = exec.LookPath("soffice"); err != nil {
			t.Skip("libreoffice not installed")
		}
	}
	dir := t.TempDir()
	data, _ := exportXLSX(t, testEntries(t), XLSXOptions{Requests: true})
	in := filepath.Join(dir, "export.xlsx")
	if err := os.WriteFile(in, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, lo, "--headless", "-env:UserInstallation=file://"+filepath.Join(dir, "profile"),
		"--convert-to", "pdf", "--outdir", dir, in)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("libreoffice: %v\n%s", err, out)
	}
	pdf, err := os.ReadFile(filepath.Join(dir, "export.pdf"))
	if err != nil || !bytes.HasPrefix(pdf, []byte("%PDF")) || len(pdf) < 1000 {
		t.Fatalf("no PDF (%d bytes): %v", len(pdf), err)
	}
	if keep := os.Getenv("BENCHLENS_KEEP_PDF"); keep != "" {
		_ = os.WriteFile(keep, pdf, 0o644)
	}
}

// BenchmarkXLSX100 exports 100 comparisons over 500 runs (Requests off, 20 charted).
func BenchmarkXLSX100(b *testing.B) {
	entries := benchEntries(b)
	b.ResetTimer()
	var size countWriter
	report := cputime.PerOp(b)
	for b.Loop() {
		size = 0
		if err := XLSX(&size, entries, XLSXOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	// CPU time too: on a shared machine the wall time says more about the neighbours.
	report()
	b.ReportMetric(float64(size)/1e6, "MB")
}

// countWriter counts the bytes written to it.
type countWriter int64

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }

// benchEntries builds 100 arms of 5 runs (500 runs) and compares each with the next.
func benchEntries(b testing.TB) []Entry {
	arms := make([]compare.Arm, 100)
	for i := range arms {
		a := armtest.Baseline("arm-"+strconv.Itoa(i), uint64(i))
		a.TPOT = 12 - 0.01*float64(i)
		if i%2 == 1 {
			a.Resolved, a.Target = "FLASHINFER", "FLASHINFER"
		}
		arms[i] = a.Build(int64(1 + 10*i))
	}
	entries := make([]Entry, 100)
	for i := range entries {
		entries[i] = entry(int64(i+1), arms[i], arms[(i+1)%len(arms)])
		entries[i].Annotation = Annotation{Note: "note " + strconv.Itoa(i), Tags: []string{"bench"}}
	}
	return entries
}
