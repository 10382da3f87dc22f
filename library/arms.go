package library

import (
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"benchlens/analysis/compare"
	"benchlens/model"
	"benchlens/store"
)

// LoadArm loads the runs a selector names, with their per-request samples and evidence: a
// label (every run with it forms the arm) or comma-separated run ids. A selector that matches
// nothing is an error.
func LoadArm(st *store.Store, sel string) (compare.Arm, error) {
	sel = strings.TrimSpace(sel)
	ids, err := selectRuns(st, sel)
	if err != nil {
		return compare.Arm{Label: sel}, err
	}
	runs := make([]compare.RunData, len(ids))
	// Runs load in parallel: unpacking millions of gaps is the bulk of a compare.
	errs := make([]error, len(ids))
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	for i, id := range ids {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			runs[i], errs[i] = LoadRun(st, id)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return compare.Arm{Label: sel}, err
	}
	return compare.NewArm(armLabel(sel, runs), runs), nil
}

// armLabel names an arm: by its selector, or for a list of run ids by the label they all share
// (the ids themselves when their labels differ).
func armLabel(sel string, runs []compare.RunData) string {
	if !isIDList(sel) || len(runs) == 0 {
		return sel
	}
	for _, r := range runs {
		if r.Run.Label != runs[0].Run.Label {
			return sel
		}
	}
	return runs[0].Run.Label
}

// LoadRun loads one run with its samples and the evidence of its files.
func LoadRun(st *store.Store, id int64) (compare.RunData, error) {
	run, err := st.Run(id)
	if err != nil {
		return compare.RunData{}, err
	}
	evs, err := st.RunEvidence(id)
	if err != nil {
		return compare.RunData{Run: run}, err
	}
	return runData(run, evs), nil
}

// runData is a run with the evidence of its files, sorted by kind.
func runData(run *model.Run, evs []model.Evidence) compare.RunData {
	rd := compare.RunData{Run: run}
	rd.Fingerprint = model.FingerprintOf(evs)
	for i := range evs {
		ev := &evs[i]
		switch {
		case ev.Log != nil:
			rd.Logs = append(rd.Logs, ev.Log)
		case ev.Utilisation != nil && ev.Utilisation.Snapshot:
			// a one-off table: what the machine is (its Facts), no timeline
		case ev.Utilisation != nil:
			rd.Util = append(rd.Util, ev.Utilisation)
		case ev.Trace != nil:
			rd.Traces = append(rd.Traces, ev.Trace)
		}
	}
	if len(rd.Util) == 0 {
		// No smi trace: a profiler's own device timeline (an Nsight Systems export) gives the shape.
		for _, t := range rd.Traces {
			if t.Timeline != nil {
				rd.Util = append(rd.Util, t.Timeline)
			}
		}
	}
	return rd
}

// Selector is the arm selector for a list of run ids, as LoadArm reads it back.
func Selector(ids []int64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(parts, ",")
}

func isIDList(sel string) bool {
	for _, part := range strings.Split(sel, ",") {
		if _, err := strconv.ParseInt(strings.TrimSpace(part), 10, 64); err != nil {
			return false
		}
	}
	return sel != ""
}

// selectRuns resolves a selector to run ids.
func selectRuns(st *store.Store, sel string) ([]int64, error) {
	if sel == "" {
		return nil, fmt.Errorf("empty selector: give a label or run ids")
	}
	if isIDList(sel) {
		var ids []int64
		for _, part := range strings.Split(sel, ",") {
			id, _ := strconv.ParseInt(strings.TrimSpace(part), 10, 64)
			ids = append(ids, id)
		}
		return ids, nil
	}
	ids, err := st.RunsWithLabel(sel)
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		labels, _ := st.Labels()
		return nil, fmt.Errorf("no run has the label %q (labels in the library: %s)", sel, strings.Join(labels, ", "))
	}
	return ids, nil
}
