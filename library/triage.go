package library

import (
	"fmt"
	"slices"
	"strings"

	"benchlens/analysis/history"
	"benchlens/store"
)

// A change point's triage is an annotation (with its history and revisions, safe between
// analysts on a team library) of a saved comparison of its windows. The comparison's
// baseline names the change point: "history:SERIES|STAGE|LOAD POINT|FIRST RUN", so the
// triage is found again by that key however many nights arrive after it; its candidate is
// the same key with "|after". The annotation's tags hold the state: "history" and
// "accepted" or "rejected".

const triagePrefix = "history:"

func triageKey(series string, cp history.ChangePoint) string {
	return triagePrefix + series + "|" + cp.Key()
}

// TriageChangePoint records an analyst's accept or reject of a change point with a note: a
// new edit of the windows' saved comparison (saved now, the first time). An edit made while
// another analyst changed the triage is refused with store.ErrEditConflict.
func TriageChangePoint(st *store.Store, series string, cp history.ChangePoint, state, note, author string) (history.Triage, error) {
	if state != history.Accepted && state != history.Rejected {
		return history.Triage{}, usageError{fmt.Errorf("triage: %q is neither %s nor %s", state, history.Accepted, history.Rejected)}
	}
	key := triageKey(series, cp)
	found, err := triageComparisons(st, series)
	if err != nil {
		return history.Triage{}, err
	}
	var id int64
	if c, ok := found[key]; ok {
		id = c.ID
	} else {
		if cp.Record == nil {
			return history.Triage{}, fmt.Errorf("triage: change point %s has no comparison of its windows", cp.Key())
		}
		if id, err = SaveComparison(st, key, key+"|after", *cp.Record); err != nil {
			return history.Triage{}, err
		}
	}
	cur, err := st.CurrentAnnotation(id)
	if err != nil {
		return history.Triage{}, err
	}
	a, err := st.Annotate(store.Annotation{ComparisonID: id, Replaces: cur.ID, ReplacesRevision: cur.Revision,
		Author: author, Note: note, Tags: []string{"history", state}})
	if err != nil {
		return history.Triage{}, err
	}
	return history.Triage{State: state, Note: a.Note, Author: a.Author, At: a.At, Comparison: id}, nil
}

// triageComparisons are the saved comparisons that hold a series' triage, by key (the
// newest of several saved at once by two analysts).
func triageComparisons(st *store.Store, series string) (map[string]store.Comparison, error) {
	list, err := st.Comparisons(false)
	if err != nil {
		return nil, err
	}
	out := map[string]store.Comparison{}
	for _, c := range list {
		if strings.HasPrefix(c.Baseline, triagePrefix+series+"|") && c.Candidate == c.Baseline+"|after" {
			out[c.Baseline] = c
		}
	}
	return out, nil
}

// applyTriage gives each change point its current triage: the one saved under its key, else
// one saved for a step of the same stage and load point whose windows it falls on (the step
// read a night earlier or later once more nights arrived).
func applyTriage(st *store.Store, rep *history.Report) error {
	found, err := triageComparisons(st, rep.Series)
	if err != nil || len(found) == 0 {
		return err
	}
	for i := range rep.ChangePoints {
		cp := &rep.ChangePoints[i]
		c, ok := found[triageKey(rep.Series, *cp)]
		if !ok {
			prefix := triagePrefix + rep.Series + "|" + cp.Stage + "|" + cp.LoadPoint + "|"
			for k, saved := range found {
				near := slices.Contains(saved.CandidateRuns[:min(2, len(saved.CandidateRuns))], cp.FirstRun) ||
					(len(saved.BaselineRuns) > 0 && saved.BaselineRuns[len(saved.BaselineRuns)-1] == cp.FirstRun)
				if strings.HasPrefix(k, prefix) && near {
					c, ok = saved, true
					break
				}
			}
		}
		if !ok {
			continue
		}
		cur, err := st.CurrentAnnotation(c.ID)
		if err != nil {
			return err
		}
		for _, state := range []string{history.Accepted, history.Rejected} {
			if slices.Contains(cur.Tags, state) {
				cp.Triage = &history.Triage{State: state, Note: cur.Note, Author: cur.Author, At: cur.At, Comparison: c.ID}
			}
		}
	}
	return nil
}
