package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"benchlens/model"
)

// CSV hands write one file per table of the workbook (the caller decides where and whether
// it may replace a file), with the same columns: verdicts.csv, stages.csv, conditions.csv,
// evidence.csv, runs.csv, reproduce.csv, record.csv, and load_points.csv when a comparison has
// load points.
// Numbers are written in full precision without units (the header names them), unknown
// values as empty cells, infinities as inf / -inf.
//
// Spreadsheet formula injection: a spreadsheet opening a CSV file evaluates a cell starting
// with =, +, - or @ (and, in some, a tab or carriage return) as a formula. Every such string
// cell is written with a leading apostrophe ('=HYPERLINK(…)), which spreadsheets show as
// text; numbers are never prefixed.
func CSV(entries []Entry, write func(file string, data []byte) error) error {
	for _, t := range tables(entries) {
		var buf bytes.Buffer
		if err := writeCSV(&buf, t); err != nil {
			return fmt.Errorf("%s: %w", t.file, err)
		}
		if err := write(t.file, buf.Bytes()); err != nil {
			return fmt.Errorf("%s: %w", t.file, err)
		}
	}
	return nil
}

func writeCSV(out io.Writer, t *table) error {
	w := csv.NewWriter(out)
	rec := make([]string, len(t.cols))
	for i, c := range t.cols {
		rec[i] = csvText(c.name)
	}
	if err := w.Write(rec); err != nil {
		return err
	}
	for _, row := range t.rows {
		for i := range rec {
			rec[i] = ""
		}
		for i, v := range row {
			if i < len(rec) {
				rec[i] = csvValue(v)
			}
		}
		if err := w.Write(rec); err != nil {
			return err
		}
	}
	w.Flush()
	return w.Error()
}

// csvValue formats a table value for CSV.
func csvValue(v any) string {
	switch x := untyped(v).(type) {
	case nil:
		return ""
	case cell:
		return csvValue(x.v)
	case model.Num:
		return csvValue(num(x))
	case string:
		return csvText(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case time.Time:
		return x.Format(time.RFC3339)
	}
	return csvText(fmt.Sprint(v))
}

// csvText guards a string against formula injection (see CSV).
func csvText(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
