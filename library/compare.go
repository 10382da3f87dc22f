package library

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"benchlens/analysis/compare"
	"benchlens/internal/par"
	"benchlens/model"
	"benchlens/store"
)

// Compare loads both arms from the library and compares them.
func Compare(st *store.Store, baseline, candidate string, set compare.Settings) (compare.Record, error) {
	return CompareDeclared(st, baseline, candidate, set, nil)
}

// CompareDeclared compares with the change declared (nil: the manifests' declaration holds);
// the record keeps it (Record.Change), so a saved comparison keeps it too.
func CompareDeclared(st *store.Store, baseline, candidate string, set compare.Settings, declared *model.Change) (compare.Record, error) {
	base, err := LoadArm(st, baseline)
	if err != nil {
		return compare.Record{}, err
	}
	cand, err := LoadArm(st, candidate)
	if err != nil {
		return compare.Record{}, err
	}
	if err := DistinctArms(base, cand); err != nil {
		return compare.Record{}, err
	}
	computed := measureUnstored(base, cand)
	cand.Declared = declared
	rec := compare.Compare(base, cand, set)
	st.KeepMeasured(computed) // for the next compare of these runs; this one stands whatever it says
	return rec, nil
}

// measureUnstored computes, on all cores, the measured statistics of the arms' runs that have
// none stored (a library of schema 14 migrated), from the requests just read: the compare
// reads them as it would stored ones, the same floats, and returns the runs it computed them
// for. A run of more gaps than import keeps them for (measuredGapsCap) is left to the
// compare: keeping its statistics would not pay for the check of every page of the library
// that a first write makes, a second or more on a large one.
func measureUnstored(arms ...compare.Arm) []*model.Run {
	var todo []*model.Run
	for _, a := range arms {
		for _, rd := range a.Runs {
			if rd.Run.Measured == nil && gapsOf(rd.Run) <= measuredGapsCap {
				todo = append(todo, rd.Run)
			}
		}
	}
	par.Each(len(todo), 1, func(_, i int) { todo[i].Measured = compare.MeasuredStatsOf(todo[i]) })
	return todo
}

// SaveComparison stores a record with its settings and input runs, and this build as the one
// that judged it.
func SaveComparison(st *store.Store, baseline, candidate string, rec compare.Record) (int64, error) {
	judge := Version()
	rec.Benchlens = &judge
	settings, err := json.Marshal(rec.Settings)
	if err != nil {
		return 0, err
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return 0, err
	}
	return st.SaveComparison(store.Comparison{Baseline: baseline, Candidate: candidate,
		BaselineRuns: rec.Arms.Baseline.Runs, CandidateRuns: rec.Arms.Candidate.Runs,
		Settings: settings, Status: rec.Status, Record: data})
}

// FindSaved is the id of the saved comparison that rec repeats: of baseline with candidate,
// the same runs on each side, judged under the same settings and the same declared change
// to the same status (0 when none; the newest of several). The app uses it to annotate the
// comparison on screen, not an older one of the same labels.
func FindSaved(st *store.Store, baseline, candidate string, rec compare.Record) (int64, error) {
	list, err := st.Comparisons(false)
	if err != nil {
		return 0, err
	}
	want, err := json.Marshal(rec.Settings)
	if err != nil {
		return 0, err
	}
	for i := len(list) - 1; i >= 0; i-- {
		c := list[i]
		if c.Baseline != baseline || c.Candidate != candidate || c.Status != rec.Status ||
			!slices.Equal(c.BaselineRuns, rec.Arms.Baseline.Runs) || !slices.Equal(c.CandidateRuns, rec.Arms.Candidate.Runs) {
			continue
		}
		var set compare.Settings // read back and written again: the store may reformat its JSON
		if json.Unmarshal(c.Settings, &set) != nil {
			continue
		}
		if got, err := json.Marshal(set); err != nil || !bytes.Equal(got, want) {
			continue
		}
		if same, err := sameChange(st, c.ID, rec.Change); err != nil || same {
			return c.ID, err
		}
	}
	return 0, nil
}

// sameChange reports whether the saved comparison id was judged with the change rec declares
// (Record.Change, declared in the app or by the manifests): the same runs and settings with
// another declared change are another comparison, whose verdict may differ.
func sameChange(st *store.Store, id int64, change *model.Change) (bool, error) {
	c, err := st.Comparison(id)
	if err != nil {
		return false, err
	}
	var saved struct {
		Change *model.Change `json:"change"`
	}
	if json.Unmarshal(c.Record, &saved) != nil {
		return false, nil // a damaged record repeats nothing
	}
	a, _ := json.Marshal(saved.Change)
	b, _ := json.Marshal(change)
	return bytes.Equal(a, b), nil
}

// ListOptions choose what Comparisons reads.
type ListOptions struct {
	Records  bool // each comparison's record too (large)
	Standing bool // Status is the status that stands: the analyst's override where there is one
}

// Comparisons lists the saved comparisons, oldest first.
func Comparisons(st *store.Store, opt ListOptions) ([]store.Comparison, error) {
	list, err := st.Comparisons(opt.Records)
	if err != nil || !opt.Standing {
		return list, err
	}
	for i, c := range list {
		cur, err := st.CurrentAnnotation(c.ID)
		if err != nil {
			return list, err
		}
		if cur.StatusOverride != "" {
			list[i].Status = cur.StatusOverride
		}
	}
	return list, nil
}

// SavedRecord reads a saved comparison and its record.
func SavedRecord(st *store.Store, id int64) (store.Comparison, compare.Record, error) {
	var rec compare.Record
	c, err := st.Comparison(id)
	if err != nil {
		return c, rec, err
	}
	if err := json.Unmarshal(c.Record, &rec); err != nil {
		return c, rec, fmt.Errorf("comparison %d: damaged record: %w", id, err)
	}
	return c, rec, nil
}
