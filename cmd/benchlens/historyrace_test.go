package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"benchlens/analysis/history"
	"benchlens/internal/pgtest"
)

// The generated series imported into a team library by two racing importers (two CI
// machines, each importing its own nights and then the other's) gives the same change points,
// outliers and timeline as one importer into a library file: runs are ordered by date, never
// by the ids the race handed out.
func TestHistoryRacingImportersSameChangePoints(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes; skipped with -short")
	}
	dir := t.TempDir()
	all := filepath.Join(dir, "all")
	writeNightly(t, all, 0, nightlyNights)
	file := filepath.Join(dir, "lib.db")
	if _, errOut, code := bl(t, "--db", file, "import", all); code != 0 {
		t.Fatal(errOut)
	}
	want := historyShape(historyJSON(t, file, "nightly-h100"))

	// Night by night, alternately to machine a and machine b.
	series := filepath.Join(all, "nightly-h100")
	nights, err := os.ReadDir(series)
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range nights {
		machine := filepath.Join(dir, []string{"a", "b"}[i%2])
		if err := os.MkdirAll(machine, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(filepath.Join(series, n.Name()), filepath.Join(machine, n.Name())); err != nil {
			t.Fatal(err)
		}
	}
	team := pgtest.NewDatabase(t)
	a, aOut := blProcess(t, dir, "--db", team, "import", filepath.Join(dir, "a"), filepath.Join(dir, "b"))
	b, bOut := blProcess(t, dir, "--db", team, "import", filepath.Join(dir, "b"), filepath.Join(dir, "a"))
	if err := a.Wait(); err != nil {
		t.Fatalf("importer a: %v\n%s", err, aOut)
	}
	if err := b.Wait(); err != nil {
		t.Fatalf("importer b: %v\n%s", err, bOut)
	}
	rep := historyJSON(t, team, "nightly-h100")
	if len(rep.Runs) != nightlyNights {
		t.Fatalf("%d runs in the team library, want %d (each night once)", len(rep.Runs), nightlyNights)
	}
	got := historyShape(rep)
	if !slices.Equal(got, want) {
		t.Errorf("team library after the race:\n%s\nlibrary file:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// With an SLO, the attainment and goodput read from the team library's requests step
	// where the file's do.
	for _, db := range []string{file, team} {
		if _, errOut, code := bl(t, "--db", db, "settings", "slo=tpot<=12.6"); code != 0 {
			t.Fatal(errOut)
		}
	}
	want, got = historyShape(historyJSON(t, file, "nightly-h100")), historyShape(historyJSON(t, team, "nightly-h100"))
	if !slices.Equal(got, want) || !strings.Contains(strings.Join(got, "\n"), "step slo_attainment") {
		t.Errorf("with an SLO, team library:\n%s\nlibrary file:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// historyShape is a history with run ids read as their dates: what must not depend on the
// order runs were stored in.
func historyShape(rep history.Report) []string {
	date := map[int64]string{}
	for _, r := range rep.Runs {
		date[r.ID] = r.Date
	}
	dates := func(ids []int64) []string {
		out := make([]string, len(ids))
		for i, id := range ids {
			out[i] = date[id]
		}
		return out
	}
	var out []string
	for _, cp := range rep.ChangePoints {
		var causes []string
		for _, c := range cp.Causes {
			causes = append(causes, string(c.Code))
		}
		out = append(out, fmt.Sprintf("step %s %s from %s after %s: %.6g → %.6g p %.4g %s %v changed %v windows %v | %v",
			cp.Stage, cp.LoadPoint, cp.FirstDate, date[cp.LastRunBefore], cp.Before, cp.After, cp.P, cp.Status, causes,
			cp.Changed, dates(cp.Windows.Before), dates(cp.Windows.After)))
	}
	for _, o := range rep.Outliers {
		out = append(out, fmt.Sprintf("outlier %s %s %s %.6g", o.Stage, o.LoadPoint, o.Date, o.Value))
	}
	for _, c := range rep.Timeline {
		out = append(out, fmt.Sprintf("condition %s %v %v", c.Date, c.Changed, len(c.Steps)))
	}
	return out
}
