package library

import (
	"path/filepath"
	"testing"

	"benchlens/analysis/compare"
	"benchlens/model"
	"benchlens/store"
)

// A saved comparison is found again only with the change it was judged with: the same runs
// and settings with another declared change (or none) are another comparison.
func TestFindSavedMatchesTheDeclaredChange(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "lib.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	fp8 := &model.Change{What: "FP8 weights", Fields: []string{"workload.model_name"}, Path: model.PathLinear}
	rec := func(c *model.Change) compare.Record {
		r := compare.Record{Status: model.Zero, Change: c}
		r.Arms.Baseline.Runs, r.Arms.Candidate.Runs = []int64{1}, []int64{2}
		return r
	}
	plain, err := SaveComparison(st, "a", "b", rec(nil))
	if err != nil {
		t.Fatal(err)
	}
	declared, err := SaveComparison(st, "a", "b", rec(fp8))
	if err != nil {
		t.Fatal(err)
	}
	other := &model.Change{What: "FP8 KV cache", Path: model.PathLinear}
	for _, tc := range []struct {
		name   string
		change *model.Change
		want   int64
	}{
		{"no change declared", nil, plain},
		{"the declared change", &model.Change{What: "FP8 weights", Fields: []string{"workload.model_name"}, Path: model.PathLinear}, declared},
		{"another change", other, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FindSaved(st, "a", "b", rec(tc.change))
			if err != nil || got != tc.want {
				t.Errorf("FindSaved = %d, %v; want %d", got, err, tc.want)
			}
		})
	}
}
