package library

import (
	"fmt"
	"strings"

	"benchlens/analysis/reproduce"
	"benchlens/model"
	"benchlens/store"
)

// Recipe returns the rerun recipe of two arms given by selectors, from the runs' headers and
// server logs (no per-request samples are loaded).
func Recipe(st *store.Store, baseline, candidate string) (reproduce.Recipe, error) {
	base, err := recipeArm(st, baseline)
	if err != nil {
		return reproduce.Recipe{}, err
	}
	cand, err := recipeArm(st, candidate)
	if err != nil {
		return reproduce.Recipe{}, err
	}
	return reproduce.Recipe{Baseline: base, Candidate: cand}, nil
}

// SavedRecipe returns the recipe a saved comparison carries, rebuilt from its runs when the
// record predates the `reproduce` section.
func SavedRecipe(st *store.Store, id int64) (reproduce.Recipe, error) {
	_, rec, err := SavedRecord(st, id)
	if err != nil {
		return reproduce.Recipe{}, err
	}
	if hasRecipe(rec.Reproduce) {
		return rec.Reproduce, nil
	}
	return Recipe(st, IDSelector(rec.Arms.Baseline.Runs), IDSelector(rec.Arms.Candidate.Runs))
}

func hasRecipe(r reproduce.Recipe) bool {
	return len(r.Baseline.Benchmark)+len(r.Candidate.Benchmark) > 0
}

// recipeArm builds one arm's recipe from the runs a selector names.
func recipeArm(st *store.Store, sel string) (reproduce.Arm, error) {
	ids, err := selectRuns(st, sel)
	if err != nil {
		return reproduce.Arm{}, err
	}
	runs := make([]reproduce.Run, 0, len(ids))
	for _, id := range ids {
		run, err := st.Run(id) // with its requests: their lengths are the run's request shape
		if err != nil {
			return reproduce.Arm{}, err
		}
		r := reproduce.Run{Run: run}
		evs, err := st.RunEvidence(id)
		if err != nil {
			return reproduce.Arm{}, err
		}
		r.Fingerprint = model.FingerprintOf(evs)
		for i := range evs {
			if evs[i].Log != nil {
				r.Logs = append(r.Logs, evs[i].Log)
			}
		}
		runs = append(runs, r)
	}
	label := store.NormLabel(sel)
	if list, ok := strings.CutPrefix(sel, IDsPrefix); ok {
		label = list
	}
	if isIDList(label) && len(runs) > 0 {
		label = runs[0].Run.Label
	}
	return reproduce.BuildArm(label, runs), nil
}

// Script is the recipe as a shell script with a header naming where it came from (comparison
// id, or 0 for two arms) and the benchlens that wrote it: what `benchlens reproduce` prints
// and the app copies.
func Script(r reproduce.Recipe, id int64) string {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	if id != 0 {
		b.WriteString(reproduce.Comment(fmt.Sprintf("benchlens reproduce %d: comparison %d, %s vs %s", id, id, r.Baseline.Label, r.Candidate.Label)))
	} else {
		b.WriteString(reproduce.Comment(fmt.Sprintf("benchlens reproduce: %s vs %s", r.Baseline.Label, r.Candidate.Label)))
	}
	b.WriteString(reproduce.Comment(fmt.Sprintf("by %s", Version())))
	b.WriteString(r.Script())
	return b.String()
}
