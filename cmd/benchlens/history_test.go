package main

import (
	"archive/zip"
	"encoding/json"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"benchlens/analysis/history"
	"benchlens/internal/nightly"
	"benchlens/library"
	"benchlens/model"
	"benchlens/store"
)

// nightlyLibrary writes the generated nightly series and imports it as a CI job would.
func nightlyLibrary(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeNightly(t, filepath.Join(dir, "nightly"), 0, nightlyNights)
	db := filepath.Join(dir, "lib.db")
	if out, errOut, code := bl(t, "--db", db, "import", filepath.Join(dir, "nightly")); code != 0 {
		t.Fatalf("import: exit %d\n%s%s", code, out, errOut)
	}
	return db
}

func historyJSON(t *testing.T, db string, args ...string) history.Report {
	t.Helper()
	out, errOut, code := bl(t, append([]string{"--db", db, "history"}, append(args, "--format", "json")...)...)
	if code != 0 {
		t.Fatalf("history %v: exit %d %s", args, code, errOut)
	}
	var rep history.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}

// The check of issue 27: history finds exactly the steps of the generated series and
// explains each; the lone outlier is an outlier, the driver change a timeline entry, the
// steady series has no change point.
func TestHistoryFindsTheNightlySteps(t *testing.T) {
	db := nightlyLibrary(t)
	rep := historyJSON(t, db, "nightly-h100")
	if len(rep.Runs) != nightlyNights {
		t.Fatalf("%d runs, want %d", len(rep.Runs), nightlyNights)
	}
	dateOf := map[int64]string{}
	for i, r := range rep.Runs {
		dateOf[r.ID] = r.Date[:10]
		if i > 0 && r.Date < rep.Runs[i-1].Date {
			t.Errorf("runs out of date order at %d", i)
		}
	}
	var got []string
	for _, cp := range rep.ChangePoints {
		got = append(got, cp.Stage+"@"+dateOf[cp.FirstRun])
	}
	want := []string{"ttft@2026-11-21", "tpot@2026-11-29", "itl@2026-11-29", "e2el@2026-11-29", "e2e_throughput@2026-11-29"}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("change points %v, want %v", got, want)
	}
	for _, cp := range rep.ChangePoints {
		ev := cp.Changed["engine_version"]
		switch dateOf[cp.FirstRun] {
		case "2026-11-21":
			if cp.DeltaPct > -5 || cp.Worse || !strings.Contains(ev[0], "0.13.0") || !strings.Contains(ev[1], "0.13.1") {
				t.Errorf("prefill gain: %+.1f %% worse=%v engine %v", cp.DeltaPct, cp.Worse, ev)
			}
			if _, ok := cp.Changed["resolved_backend"]; ok {
				t.Errorf("prefill gain: the backend did not change: %v", cp.Changed)
			}
		case "2026-11-29":
			if !cp.Worse || !strings.Contains(ev[1], "0.14.0") || cp.Changed["resolved_backend"] != [2]string{"FLASH_ATTN", "TRITON_ATTN"} {
				t.Errorf("%s fallback step: worse=%v changed %v", cp.Stage, cp.Worse, cp.Changed)
			}
			if len(cp.Evidence) == 0 || !strings.Contains(cp.Evidence[0].Text, "FLASH_ATTN") || !strings.Contains(cp.Verdict, "TRITON_ATTN") {
				t.Errorf("%s fallback step: no fallback line quoted: %q %v", cp.Stage, cp.Verdict, cp.Evidence)
			}
		}
		if _, ok := cp.Changed["driver_version"]; ok {
			t.Errorf("%s: the driver changed outside the windows: %v", cp.Stage, cp.Changed)
		}
		if len(cp.Windows.Before) != 5 || len(cp.Windows.After) != 5 || cp.Status == "" || cp.Verdict == "" || cp.P >= 0.01 {
			t.Errorf("%s: windows %v, status %q, p %.3f", cp.Stage, cp.Windows, cp.Status, cp.P)
		}
	}
	outliers := map[string]bool{}
	for _, o := range rep.Outliers {
		outliers[dateOf[o.Run]] = true
	}
	if len(outliers) != 1 || !outliers["2026-11-09"] {
		t.Errorf("outliers on %v, want the night of 2026-11-09 only", outliers)
	}
	var driver *history.ConditionChange
	for i, c := range rep.Timeline {
		if _, ok := c.Changed["driver_version"]; ok {
			driver = &rep.Timeline[i]
		}
	}
	if driver == nil || dateOf[driver.Run] != "2026-11-15" || len(driver.Steps) != 0 {
		t.Errorf("the driver change is not a timeline entry without steps: %+v", driver)
	}

	if steady := historyJSON(t, db, "steady-a100"); len(steady.ChangePoints) != 0 || len(steady.Runs) != nightlyNights {
		t.Errorf("steady series: %d runs, change points %+v", len(steady.Runs), steady.ChangePoints)
	}
	if only := historyJSON(t, db, "nightly-h100", "--stage", "decode"); len(only.ChangePoints) != 2 {
		t.Errorf("--stage decode: %d change points, want tpot and itl", len(only.ChangePoints))
	}
}

// history --format json is a contract: its golden is the generated series' history.
func TestHistoryGolden(t *testing.T) {
	db := nightlyLibrary(t)
	out, errOut, code := bl(t, "--db", db, "history", "nightly-h100", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d %s", code, errOut)
	}
	golden(t, "history_nightly.golden.json", out)
	out, _, _ = bl(t, "--db", db, "history", "--stage", "ttft", "nightly-h100")
	golden(t, "history_nightly_ttft.golden.txt", out)
	if _, errOut, code := bl(t, "--db", db, "history", "no-such-series"); code != 1 || !strings.Contains(errOut, "nightly-h100") {
		t.Errorf("unknown series: exit %d %q", code, errOut)
	}
	if _, _, code := bl(t, "--db", db, "history", "nightly-h100", "--stage", "warp"); code != 2 {
		t.Errorf("unknown stage: exit %d, want 2", code)
	}
	if rep := historyJSON(t, db, "nightly-h100", "--min-magnitude", "0.2"); len(rep.ChangePoints) != 0 {
		t.Errorf("no step moved 20 %%, yet %d change points", len(rep.ChangePoints))
	}
	if _, _, code := bl(t, "--db", db, "history", "nightly-h100", "--series-alpha", "2"); code != 2 {
		t.Errorf("alpha 2: exit %d, want 2", code)
	}
}

// gate fails a candidate significantly worse by more than the threshold, and writes the
// Markdown summary; within the threshold it passes.
func TestGate(t *testing.T) {
	db := nightlyLibrary(t)
	before, after := "24,25,26,27,28", "29,30,31,32,33" // the windows of the fallback step
	md := filepath.Join(t.TempDir(), "gate.md")
	_, errOut, code := bl(t, "--db", db, "gate", "--baseline", before, "--candidate", after, "--max-regression", "5", "--md", md)
	if code != 1 || !strings.Contains(errOut, "TPOT +10.") {
		t.Errorf("a 10 %% decode regression against 5 %%: exit %d %q", code, errOut)
	}
	text, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	body := string(text)
	if i := strings.LastIndex(body, "_Written by benchlens"); i >= 0 { // the build varies
		body = body[:i] + "_Written by benchlens …_\n"
	}
	golden(t, "gate_fallback.golden.md", body)
	out, _, code := bl(t, "--db", db, "gate", "--baseline", before, "--candidate", after, "--max-regression", "20")
	if code != 0 || !strings.Contains(out, "gate: pass") {
		t.Errorf("within 20 %%: exit %d\n%s", code, out)
	}
	if _, _, code := bl(t, "--db", db, "gate", "--baseline", before); code != 2 {
		t.Errorf("no candidate: exit %d, want 2", code)
	}
}

// A rejected change point stays rejected when more nights arrive; its triage is an
// annotation with its history.
func TestHistoryTriage(t *testing.T) {
	dir := t.TempDir()
	writeNightly(t, filepath.Join(dir, "first"), 0, 34)
	db := filepath.Join(dir, "lib.db")
	if _, errOut, code := bl(t, "--db", db, "import", filepath.Join(dir, "first")); code != 0 {
		t.Fatal(errOut)
	}
	rep := historyJSON(t, db, "nightly-h100")
	var step int64
	for _, cp := range rep.ChangePoints {
		if cp.Stage == "tpot" {
			step = cp.FirstRun
		}
	}
	if step == 0 {
		t.Fatalf("no tpot step in %+v", rep.ChangePoints)
	}
	run := func(args ...string) {
		t.Helper()
		if _, errOut, code := bl(t, append([]string{"--db", db, "history", "nightly-h100"}, args...)...); code != 0 {
			t.Fatalf("%v: exit %d %s", args, code, errOut)
		}
	}
	run("--stage", "tpot", "--accept", itoa(step), "--note", "known: FA3 wheel")
	run("--stage", "tpot", "--reject", itoa(step), "--note", "the CI image was wrong, not vLLM")
	writeNightly(t, filepath.Join(dir, "more"), 34, nightlyNights+6)
	if _, errOut, code := bl(t, "--db", db, "import", filepath.Join(dir, "more")); code != 0 {
		t.Fatal(errOut)
	}
	rep = historyJSON(t, db, "nightly-h100")
	for _, cp := range rep.ChangePoints {
		switch {
		case cp.Stage == "tpot" && (cp.Triage == nil || cp.Triage.State != "rejected" || cp.Triage.Note != "the CI image was wrong, not vLLM"):
			t.Errorf("tpot step after more nights: triage %+v", cp.Triage)
		case cp.Stage != "tpot" && cp.Triage != nil:
			t.Errorf("%s: triaged %+v, only tpot was", cp.Stage, cp.Triage)
		}
		if cp.Stage == "tpot" && cp.Triage != nil {
			st, err := store.Open(db)
			if err != nil {
				t.Fatal(err)
			}
			edits, err := library.Annotations(st, cp.Triage.Comparison)
			st.Close()
			if err != nil || len(edits) != 2 || edits[0].Note != "known: FA3 wheel" || !slices.Contains(edits[0].Tags, "accepted") {
				t.Errorf("the triage's history is not its comparison's annotations: %+v %v", edits, err)
			}
		}
	}
	if _, _, code := bl(t, "--db", db, "history", "nightly-h100", "--reject", "1"); code != 1 {
		t.Errorf("rejecting a run no step starts at: exit %d, want 1", code)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

const nightlyNights = nightly.Nights

// writeNightly writes nights [from, to) of the generated series under dir.
func writeNightly(t *testing.T, dir string, from, to int) {
	t.Helper()
	if err := nightly.Write(dir, from, to); err != nil {
		t.Fatal(err)
	}
}

// history --xlsx writes the History sheet with a native line chart per stage metric, and the
// Change points sheet; --md the Markdown summary.
func TestHistoryExports(t *testing.T) {
	db := nightlyLibrary(t)
	dir := t.TempDir()
	book, md := filepath.Join(dir, "history.xlsx"), filepath.Join(dir, "history.md")
	if _, errOut, code := bl(t, "--db", db, "history", "nightly-h100", "--xlsx", book, "--md", md); code != 0 {
		t.Fatalf("exit %d %s", code, errOut)
	}
	f, err := excelize.OpenFile(book)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := f.GetSheetList(); !slices.Equal(got, []string{"History", "Change points"}) {
		t.Errorf("sheets %v", got)
	}
	if rows, _ := f.GetRows("History"); len(rows) != nightlyNights+1 || rows[0][6] != "TTFT (prefill) (ms)" {
		t.Errorf("History sheet: %d rows, header %v", len(rows), rows[0])
	}
	if rows, _ := f.GetRows("Change points"); len(rows) != 6 || !strings.Contains(strings.Join(rows[2], " "), "TRITON_ATTN") {
		t.Errorf("Change points sheet: %v", rows)
	}
	if lines := lineCharts(t, book, func(string) bool { return true }); lines != len(model.StageMetrics) {
		t.Errorf("%d native line charts, want one per stage metric (%d)", lines, len(model.StageMetrics))
	}
	text, _ := os.ReadFile(md)
	for _, want := range []string{"## History of nightly-h100", "TPOT (decode)", "driver_version 550.54.15 → 560.35.03 (nothing moved)"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("Markdown lacks %q:\n%s", want, text)
		}
	}
}

// history --png draws one chart per stage metric and load point of the series, each a PNG the
// size it was asked, and says each file it wrote.
func TestHistoryPNG(t *testing.T) {
	db := nightlyLibrary(t)
	dir := filepath.Join(t.TempDir(), "charts")
	_, errOut, code := bl(t, "--db", db, "history", "nightly-h100", "--png", dir)
	if code != 0 {
		t.Fatalf("exit %d %s", code, errOut)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "history-*.png"))
	if len(files) != len(model.StageMetrics) {
		t.Fatalf("%d charts, want one per stage metric at the series' one load point (%d): %v", len(files), len(model.StageMetrics), files)
	}
	for _, f := range files {
		r, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(r)
		r.Close()
		if err != nil || cfg.Width != 1000 || cfg.Height != 560 {
			t.Errorf("%s: %dx%d, %v", f, cfg.Width, cfg.Height, err)
		}
		if !strings.Contains(errOut, "wrote "+f) {
			t.Errorf("no line says %s was written:\n%s", f, errOut)
		}
	}
}

// export --xlsx of a comparison whose runs are nights of a series adds the History sheet:
// the series' change points and runs at the compared load point, a native line chart of
// each stage metric with the change points marked as a series of their own.
func TestExportXLSXHasTheSeriesHistory(t *testing.T) {
	db := nightlyLibrary(t)
	rep := historyJSON(t, db, "nightly-h100")
	var step history.ChangePoint
	for _, cp := range rep.ChangePoints {
		if cp.Stage == model.TPOT {
			step = cp
		}
	}
	ids := func(runs []int64) string {
		var s []string
		for _, id := range runs {
			s = append(s, itoa(id))
		}
		return "ids:" + strings.Join(s, ",")
	}
	if _, errOut, code := bl(t, "--db", db, "compare", "--baseline", ids(step.Windows.Before), "--candidate", ids(step.Windows.After), "--save"); code != 0 {
		t.Fatalf("compare: %s", errOut)
	}
	book := filepath.Join(t.TempDir(), "comparison.xlsx")
	if _, errOut, code := bl(t, "--db", db, "export", "--xlsx", book); code != 0 {
		t.Fatalf("export: %s", errOut)
	}
	f, err := excelize.OpenFile(book)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if !slices.Contains(f.GetSheetList(), "History") {
		t.Fatalf("no History sheet: %v", f.GetSheetList())
	}
	rows, _ := f.GetRows("History")
	if len(rows) < 2 || !strings.HasPrefix(rows[0][0], "Series nightly-h100: 40 runs at ") || rows[1][0] != "stage" {
		t.Fatalf("History sheet starts %v", rows[:min(2, len(rows))])
	}
	var header []string
	marked := map[string]string{} // run → its TPOT mark
	for _, r := range rows {
		if len(r) > 0 && r[0] == "run" {
			header = r
			continue
		}
		if header != nil && len(r) > 0 {
			if k := slices.Index(header, "TPOT change point"); k >= 0 && k < len(r) && r[k] != "" {
				marked[r[0]] = r[k]
			}
		}
	}
	if len(marked) != 1 || marked[itoa(step.FirstRun)] == "" {
		t.Errorf("TPOT marks %v, want one at run %d", marked, step.FirstRun)
	}
	// Two series each (the values and the change points), read from the History sheet.
	lines := lineCharts(t, book, func(xml string) bool {
		return strings.Count(xml, "<ser>") == 2 && strings.Contains(xml, "&#39;History&#39;!")
	})
	if lines != len(model.StageMetrics) {
		t.Errorf("%d line charts of the series with their change points, want %d", lines, len(model.StageMetrics))
	}
}

// lineCharts counts a workbook's native line charts whose XML keep accepts.
func lineCharts(t *testing.T, book string, keep func(xml string) bool) int {
	t.Helper()
	zr, err := zip.OpenReader(book)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	lines := 0
	for _, zf := range zr.File {
		if strings.HasPrefix(zf.Name, "xl/charts/chart") {
			rc, _ := zf.Open()
			b, _ := io.ReadAll(rc)
			rc.Close()
			if strings.Contains(string(b), "lineChart>") && keep(string(b)) {
				lines++
			}
		}
	}
	return lines
}

// With an SLO set, the series carries each night's attainment and goodput under it, and their
// steps are change points as a stage metric's are: a TPOT limit the decode regression of night
// 28 breaks steps both down there, and the slow night 8 is their outlier, not a step.
func TestHistorySLOMetrics(t *testing.T) {
	db := nightlyLibrary(t)
	if _, errOut, code := bl(t, "--db", db, "settings", "slo=tpot<=12.6"); code != 0 {
		t.Fatalf("settings: %s", errOut)
	}
	rep := historyJSON(t, db, "nightly-h100")
	if rep.SLO != "tpot<=12.6" {
		t.Errorf("slo %q", rep.SLO)
	}
	var tpot int64
	steps := map[string]history.ChangePoint{}
	for _, cp := range rep.ChangePoints {
		steps[cp.Stage] = cp
		if cp.Stage == model.TPOT {
			tpot = cp.FirstRun
		}
	}
	for _, key := range []string{"slo_attainment", "goodput"} {
		cp, ok := steps[key]
		if !ok || cp.FirstRun != tpot || cp.DeltaPct > -50 || !cp.Worse || cp.Verdict == "" {
			t.Errorf("%s: step %+v, want one down at run %d, explained", key, cp, tpot)
		}
		if v := rep.Runs[0].Values[key]; v == nil {
			t.Errorf("run %d has no %s", rep.Runs[0].ID, key)
		}
	}
	outliers := map[string]int64{}
	for _, o := range rep.Outliers {
		outliers[o.Stage] = o.Run
	}
	if outliers["slo_attainment"] == 0 || outliers["slo_attainment"] != outliers[model.TPOT] {
		t.Errorf("outliers %v: the slow night is not the attainment's outlier", outliers)
	}
	if only := historyJSON(t, db, "nightly-h100", "--stage", "slo_attainment"); len(only.ChangePoints) != 1 {
		t.Errorf("--stage slo_attainment: %d change points", len(only.ChangePoints))
	}
}
