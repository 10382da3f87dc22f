package library

import (
	"errors"
	"path/filepath"
	"testing"

	"benchlens/model"
	"benchlens/store"
)

func savedPair(t *testing.T) (*store.Store, int64, int64) {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "lib.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var ids [2]int64
	for i := range ids {
		if ids[i], err = st.SaveComparison(store.Comparison{Baseline: "a", Candidate: "b", Status: model.Zero, Settings: []byte("{}"), Record: []byte("{}")}); err != nil {
			t.Fatal(err)
		}
	}
	return st, ids[0], ids[1]
}

// The saves of one sitting are one history entry; ending it, or saving another comparison,
// starts a new one; a second sitting made from an old version is refused, not saved over.
func TestSittingFoldsSaves(t *testing.T) {
	st, first, second := savedPair(t)
	var s Sitting
	var last store.Annotation
	for _, note := range []string{"c", "ch", "checked"} {
		cur, _ := CurrentAnnotation(st, first)
		a, err := s.Save(st, store.Annotation{ComparisonID: first, Replaces: cur.ID, ReplacesRevision: cur.Revision, Author: "x", Note: note})
		if err != nil {
			t.Fatal(err)
		}
		last = a
	}
	if hist, _ := Annotations(st, first); len(hist) != 1 || hist[0].Note != "checked" {
		t.Fatalf("one sitting gave %+v, want one entry \"checked\"", hist)
	}
	s.End()
	if _, err := s.Save(st, store.Annotation{ComparisonID: first, Replaces: last.ID, ReplacesRevision: last.Revision, Author: "x", Note: "again"}); err != nil {
		t.Fatal(err)
	}
	if hist, _ := Annotations(st, first); len(hist) != 2 {
		t.Errorf("after End: %d entries, want 2", len(hist))
	}
	if _, err := s.Save(st, store.Annotation{ComparisonID: second, Author: "x", Note: "other"}); err != nil {
		t.Fatal(err)
	}
	if hist, _ := Annotations(st, second); len(hist) != 1 {
		t.Errorf("another comparison: %d entries, want 1", len(hist))
	}
	var stale Sitting // made from the first version, which is no longer current
	if _, err := stale.Save(st, store.Annotation{ComparisonID: first, Author: "y", Note: "mine"}); !errors.Is(err, store.ErrEditConflict) {
		t.Errorf("an edit of an old version: %v, want ErrEditConflict", err)
	}
}

// The status that stands is the analyst's override; without Standing it is the proposal.
func TestComparisonsStanding(t *testing.T) {
	st, first, _ := savedPair(t)
	var s Sitting
	if _, err := s.Save(st, store.Annotation{ComparisonID: first, Author: "x", StatusOverride: model.Established, OverrideReason: "checked the traces"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		opt  ListOptions
		want model.Status
	}{{ListOptions{}, model.Zero}, {ListOptions{Standing: true}, model.Established}} {
		list, err := Comparisons(st, c.opt)
		if err != nil || len(list) != 2 || list[0].Status != c.want || list[1].Status != model.Zero {
			t.Errorf("%+v: %+v, %v; want the first %s", c.opt, list, err, c.want)
		}
	}
}

func TestRelabelRefusesUnknownRole(t *testing.T) {
	st, _, _ := savedPair(t)
	if err := Relabel(st, []int64{1}, "arm", "winner"); err == nil {
		t.Error("role \"winner\" accepted")
	}
}
