package main

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// The real H100 FP16/FP8 pair (concurrency 1 and 64), imported with a label per arm, compared
// and exported: the Stages sheet and stages.csv carry each point's rows with the figures
// compare prints, and the charts come per point too (comparison-1-point2-tpot_cdf.png).
func TestSweepExportsPerPoint(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "lib.db")
	for _, arm := range [][3]string{{"fp16", "baseline", "FP16-*.json"}, {"fp8", "candidate", "FP8-*.json"}} {
		files, _ := filepath.Glob(filepath.Join(fixtures, "h100-fp16-vs-fp8", arm[2]))
		if _, stderr, code := bl(t, append([]string{"--db", db, "import", "--label", arm[0], "--role", arm[1]}, files...)...); code != 0 {
			t.Fatalf("import %s: %s", arm[0], stderr)
		}
	}
	text, stderr, code := bl(t, "--db", db, "compare", "--baseline", "fp16", "--candidate", "fp8", "--save")
	if code != 0 {
		t.Fatalf("compare: %s", stderr)
	}
	for _, want := range []string{"TTFT (prefill)     54.8 ms      42.15 ms     −23.1 %", "TPOT (decode)      20.85 ms    16.77 ms    −19.6 %"} {
		if !strings.Contains(text, want) {
			t.Errorf("compare does not print %q:\n%s", want, text)
		}
	}
	for _, flag := range []string{"--xlsx", "--csv", "--png"} {
		dest := filepath.Join(dir, strings.TrimPrefix(flag, "--"))
		if flag == "--xlsx" {
			dest += ".xlsx"
		}
		if _, stderr, code := bl(t, "--db", db, "export", flag, dest); code != 0 {
			t.Fatalf("export %s: %s", flag, stderr)
		}
	}

	// stages.csv: the TTFT and TPOT rows of each point, as compare prints them.
	f, err := os.Open(filepath.Join(dir, "csv", "stages.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	got := map[string]string{}
	for _, r := range rows[1:] {
		if r[col["load_point"]] == "" {
			t.Errorf("a pooled row: %v", r)
		}
		if r[col["bucket"]] == "all" {
			point, _, _ := strings.Cut(r[col["load_point"]], ",")
			f := func(name string) float64 {
				v, _ := strconv.ParseFloat(r[col[name]], 64)
				return v
			}
			got[point+" "+r[col["metric"]]] = fmt.Sprintf("%.4g %.4g %.2f", f("baseline"), f("candidate"), f("delta_pct"))
		}
	}
	for key, want := range map[string]string{
		"concurrency 1 ttft": "54.8 42.15 -23.09", "concurrency 1 tpot": "10.52 7.36 -30.02",
		"concurrency 64 ttft": "87.96 74.07 -15.80", "concurrency 64 tpot": "20.85 16.77 -19.57",
	} {
		if got[key] != want {
			t.Errorf("stages.csv %s: %q, want %q", key, got[key], want)
		}
	}

	// The workbook's Stages sheet: the same rows.
	x, err := excelize.OpenFile(filepath.Join(dir, "xlsx.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	sheet, _ := x.GetRows("Stages")
	points := map[string]int{}
	for _, r := range sheet[1:] {
		if len(r) > col["metric"] && r[col["bucket"]] == "all" {
			points[r[col["load_point"]]]++
		}
	}
	if len(points) != 2 {
		t.Errorf("the Stages sheet's points: %v", points)
	}

	for _, name := range []string{"comparison-1-point1-tpot_cdf.png", "comparison-1-point2-tpot_cdf.png", "comparison-1-point2-stage_deltas.svg", "comparison-1-load_deltas.png"} {
		if _, err := os.Stat(filepath.Join(dir, "png", name)); err != nil {
			t.Errorf("no %s", name)
		}
	}
}
