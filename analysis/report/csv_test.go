package report

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"benchlens/model"
)

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestCSV(t *testing.T) {
	entries := testEntries(t)
	dir := filepath.Join(t.TempDir(), "out")
	if err := csvToDir(dir, entries); err != nil {
		t.Fatal(err)
	}
	_, f := exportXLSX(t, entries, XLSXOptions{Charts: -1})
	for file, sheet := range map[string]string{"verdicts.csv": SheetVerdicts, "stages.csv": SheetStages,
		"conditions.csv": SheetConditions, "evidence.csv": SheetEvidence, "runs.csv": SheetRuns, "record.csv": SheetRecord} {
		rows := readCSV(t, filepath.Join(dir, file))
		xrows, _ := f.GetRows(sheet)
		if !slices.Equal(rows[0], xrows[0]) {
			t.Errorf("%s header differs from sheet %s:\n%v\n%v", file, sheet, rows[0], xrows[0])
		}
		if len(rows) != len(xrows) {
			t.Errorf("%s: %d rows, sheet %d", file, len(rows), len(xrows))
		}
	}

	v := readCSV(t, filepath.Join(dir, "verdicts.csv"))
	col := map[string]int{}
	for i, h := range v[0] {
		col[h] = i
	}
	row := v[1]
	for name, want := range map[string]string{
		"analyst.note":            "'" + injection, // guarded
		"analyst.tags":            "decode, +1",
		"analyst.override_reason": "'@ops: second look at the copies",
		"status":                  "offset", // the analyst's override stands
		"proposed_status":         "established",
	} {
		if row[col[name]] != want {
			t.Errorf("%s = %q, want %q", name, row[col[name]], want)
		}
	}
	driver := ""
	for _, r := range readCSV(t, filepath.Join(dir, "record.csv")) {
		if r[0] == "1" && r[1] == "stack_fingerprint.driver_version.baseline" {
			driver = r[2]
		}
	}
	if driver != "550.54.15" {
		t.Errorf("record.csv: driver %q", driver)
	}
	if got := v[4][col["candidate"]]; got != "'-fallback" {
		t.Errorf("label %q not guarded", got)
	}
	// Numbers are never prefixed, even negative ones.
	d, err := strconv.ParseFloat(row[col["perf.tpot.delta_pct"]], 64)
	if err != nil || d != entries[0].Record.Perf[model.TPOT].Delta.F() || d >= 0 {
		t.Errorf("tpot delta %q (%v)", row[col["perf.tpot.delta_pct"]], err)
	}
	if got := readCSV(t, filepath.Join(dir, "runs.csv"))[1]; !slices.Contains(got, "inf") {
		t.Errorf("infinite request rate missing: %v", got)
	}
}

func TestCSVText(t *testing.T) {
	for in, want := range map[string]string{"=1+2": "'=1+2", "+1": "'+1", "-x": "'-x", "@SUM(A1)": "'@SUM(A1)",
		"\tx": "'\tx", "a=b": "a=b", "": "", "ok": "ok"} {
		if got := csvText(in); got != want {
			t.Errorf("csvText(%q) = %q, want %q", in, got, want)
		}
	}
	if got := csvValue(-1.5); got != "-1.5" {
		t.Errorf("number %q", got)
	}
}

// csvToDir writes the CSV files into dir, as the export does.
func csvToDir(dir string, entries []Entry) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return CSV(entries, func(file string, data []byte) error {
		return os.WriteFile(filepath.Join(dir, file), data, 0o644)
	})
}
