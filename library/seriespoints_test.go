package library

import (
	"path/filepath"
	"testing"

	"benchlens/analysis/history"
	"benchlens/model"
)

// A series is read without its requests, yet names its load points as a compare of the same
// runs read whole does: the real H100 FP16 and FP8 runs at concurrency 1 and 64 (1024 in, 512
// out, fixed by ignore_eos, which only the outputs' lengths say) give two points, each
// "≈939→≈512 tok", where the runs' totals alone said "output not fixed".
func TestSeriesPointsAsTheWholeRuns(t *testing.T) {
	st := openStore(t)
	rep := Import(st, []string{filepath.Join(fixtures, "h100-fp16-vs-fp8")}, Options{Label: "h100"})
	if len(rep.Errors) > 0 || len(rep.Added) != 4 {
		t.Fatalf("import: %+v", rep)
	}
	runs, err := SeriesRuns(st, "h100")
	if err != nil {
		t.Fatal(err)
	}
	whole, err := st.RunsWithRequests(rep.Added)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, r := range whole {
		want[model.PointOf(r).Label()] = true
	}
	points := history.Points(runs)
	if len(points) != 2 || len(want) != 2 {
		t.Fatalf("%d points in the series, %d among the whole runs: %+v", len(points), len(want), points)
	}
	for _, p := range points {
		if !want[p.Label] {
			t.Errorf("the series names a point %q; the whole runs' are %v", p.Label, want)
		}
	}
}
