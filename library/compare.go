package library

import (
	"encoding/json"

	"benchlens/analysis/compare"
	"benchlens/store"
)

// Compare loads both arms from the library and compares them.
func Compare(st *store.Store, baseline, candidate string, set compare.Settings) (compare.Record, error) {
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
	return compare.Compare(base, cand, set), nil
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
