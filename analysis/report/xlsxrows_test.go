package report

import (
	"bytes"
	"io"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"benchlens/model"
)

// sheetXML writes one table as a workbook, its rows by rowsXML or by excelize's StreamWriter,
// and returns the table's sheet part.
func sheetXML(t *testing.T, tb *table, asXML bool) string {
	t.Helper()
	defer func(was bool) { rowsAsXML = was }(rowsAsXML)
	rowsAsXML = asXML
	f := excelize.NewFile()
	defer f.Close()
	st, err := newStyles(f)
	if err != nil {
		t.Fatal(err)
	}
	f.SetZipWriter(func(w io.Writer) excelize.ZipWriter { return newZipper(w, st.rows) })
	if err := f.SetSheetName("Sheet1", tb.sheet); err != nil {
		t.Fatal(err)
	}
	if err := writeTable(f, st, tb, 1); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	part := zipFiles(t, buf.Bytes())["xl/worksheets/sheet1.xml"]
	if !strings.Contains(part, `<row r="2">`) {
		t.Fatalf("no rows written:\n%s", part)
	}
	return part
}

// Rows written as XML are the bytes excelize's StreamWriter writes for the same table:
// numbers at its precision, texts escaped as it escapes them (new lines kept, white space
// preserved, invalid UTF-8 replaced), styles and empty styled cells; a table with a value
// left to excelize (a time, an _xHHHH_ text) is written by excelize whole.
func TestRowsXMLAsExcelize(t *testing.T) {
	cols := []column{{"id", kInt, 0}, {"text", kText, 0}, {"value", kNum, 0}, {"ms", kMS, 0}, {"status", kStatus, 0}, {"pct", kPct, 0}}
	floats := []float64{0, math.Copysign(0, -1), 0.1 + 0.2, 1.0 / 3, 2.0 / 3 * 1e6, 123456789.123456789, 1e21, 1.5e300, 1e-7, 4.9e-324,
		-123456789012345678, 12345678901234567890, 12345678901234568, 1234567890123456.7, math.MaxFloat64, -math.MaxFloat64, math.NaN(), math.Inf(1), math.Inf(-1), 12.5}
	texts := []string{"plain", " lead", "trail ", "\ttab", "nl\n", "a\r\nb", `<a href="x">&'</a>`, "é 日本 ✓", "bad \xff utf-8", "ctl \x01\x1f",
		"=HYPERLINK(\"x\")", "", "emoji 🎉", "json {\"k\":[1,2]}"}
	var rows [][]any
	for i := range max(len(floats), len(texts)) {
		row := []any{i, nil, nil, nil, nil, nil}
		if i < len(texts) {
			row[1] = texts[i]
		}
		if i < len(floats) {
			row[2], row[3], row[5] = floats[i], floatCell(floats[i]), model.Num(floats[i])
		}
		row[4] = []any{model.Established, model.NotEstablished, "unknown", nil}[i%4]
		if i%3 == 0 {
			row[3] = cell{int64(-i), kMS}
		}
		if i%5 == 0 {
			row[2] = i%2 == 0
		}
		rows = append(rows, row)
	}
	rows = append(rows, []any{1, "short row"}, []any{}, []any{2, "long", 1.0, 2.0, model.Zero, 3.0, "beyond the columns"})
	tb := &table{sheet: "T", cols: cols, rows: rows}
	if _, ok := rowsXML(&styles{}, tb); !ok {
		t.Fatal("the table was left to excelize")
	}
	if got, want := sheetXML(t, tb, true), sheetXML(t, tb, false); got != want {
		t.Errorf("rows as XML differ from excelize's:\n%s\nwant\n%s", got, want)
	}
	for _, odd := range []any{time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC), "a _x0041_ b", uint8(3)} {
		tb := &table{sheet: "T", cols: cols, rows: [][]any{{1, odd}}}
		if _, ok := rowsXML(&styles{}, tb); ok {
			t.Errorf("%#v written as XML, not by excelize", odd)
		}
		if got, want := sheetXML(t, tb, true), sheetXML(t, tb, false); got != want {
			t.Errorf("%#v: %s\nwant\n%s", odd, got, want)
		}
	}
}
