package library

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"benchlens/analysis/compare"
	"benchlens/internal/textsafe"
	"benchlens/model"
	"benchlens/store"
)

// LoadArm loads the runs a selector names, with their per-request samples and evidence: a
// label (every run with it forms the arm) or comma-separated run ids. A selector that matches
// nothing is an error.
func LoadArm(st *store.Store, sel string) (compare.Arm, error) {
	sel = store.NormLabel(strings.TrimSpace(sel)) // the arm is named as its label is stored
	ids, err := selectRuns(st, sel)
	if err != nil {
		return compare.Arm{Label: sel}, err
	}
	runs, err := loadRuns(st, ids)
	if err != nil {
		return compare.Arm{Label: sel}, err
	}
	return compare.NewArm(armLabel(sel, runs), runs), nil
}

// armLabel names an arm: by its selector, or for a list of run ids by the label they all share
// (the ids themselves when their labels differ).
func armLabel(sel string, runs []compare.RunData) string {
	if list, ok := strings.CutPrefix(sel, IDsPrefix); ok && isIDList(list) {
		sel = list
	}
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

// armReaders is how many batches of an arm's runs are read at once: decoding the rows of
// one batch while the engine reads the next.
const armReaders = 2

// loadRuns loads the runs with their samples and evidence in a few batched reads
// (store.RunsWithRequests, store.SeriesEvidence), the batches on armReaders connections: an
// arm of a thousand small runs costs its requests, not three statements per run.
func loadRuns(st *store.Store, ids []int64) ([]compare.RunData, error) {
	out := make([]compare.RunData, len(ids))
	chunks := slices.Collect(slices.Chunk(ids, max(1, (len(ids)+armReaders-1)/armReaders)))
	errs := make([]error, len(chunks))
	var wg sync.WaitGroup
	start := 0
	for c, chunk := range chunks {
		wg.Add(1)
		go func(first int) {
			defer wg.Done()
			runs, err := st.RunsWithRequests(chunk)
			if err != nil {
				errs[c] = err
				return
			}
			evs, err := st.SeriesEvidence(chunk)
			if err != nil {
				errs[c] = err
				return
			}
			for i, r := range runs {
				out[first+i] = runData(r, evs[r.ID])
			}
		}(start)
		start += len(chunk)
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// LoadRun loads one run with its samples and the evidence of its files.
func LoadRun(st *store.Store, id int64) (compare.RunData, error) {
	rd, _, err := LoadRunEvidence(st, id)
	return rd, err
}

// LoadRunEvidence is LoadRun that also returns the evidence as stored, file by file, for the
// views that tell what each file said (report.Evidence).
func LoadRunEvidence(st *store.Store, id int64) (compare.RunData, []model.Evidence, error) {
	run, err := st.Run(id)
	if err != nil {
		return compare.RunData{}, nil, err
	}
	evs, err := st.RunEvidence(id)
	if err != nil {
		return compare.RunData{Run: run}, nil, err
	}
	return runData(run, evs), evs, nil
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

// IDSelector names run ids whatever labels the library has (a label "9" does not take "9"):
// what the app puts in an arm field for runs picked in the sidebar or a history window.
func IDSelector(ids []int64) string { return IDsPrefix + Selector(ids) }

func isIDList(sel string) bool {
	for _, part := range strings.Split(sel, ",") {
		if _, err := strconv.ParseInt(strings.TrimSpace(part), 10, 64); err != nil {
			return false
		}
	}
	return sel != ""
}

// IDsPrefix before a selector makes it run ids whatever labels the library has: "ids:9"
// is run 9 even when a label "9" exists.
const IDsPrefix = "ids:"

// selectRuns resolves a selector to run ids.
func selectRuns(st *store.Store, sel string) ([]int64, error) {
	ids, _, err := resolveSelector(st, sel)
	return ids, err
}

// SelectorNote says how a selector that could be read two ways was read (a label that looks
// like run ids: "9"), for the command line to print; "" when it could not.
func SelectorNote(st *store.Store, sel string) string {
	_, note, _ := resolveSelector(st, strings.TrimSpace(sel))
	return note
}

// resolveSelector reads a selector: a label when a run has it (also one that looks like
// run ids, with a note saying so), else comma-separated run ids, or IDsPrefix and run ids.
func resolveSelector(st *store.Store, sel string) ([]int64, string, error) {
	if sel == "" {
		return nil, "", fmt.Errorf("empty selector: give a label or run ids")
	}
	if list, ok := strings.CutPrefix(sel, IDsPrefix); ok {
		if !isIDList(list) {
			return nil, "", fmt.Errorf("%s: %s must be followed by comma-separated run ids", textsafe.Quote(sel), IDsPrefix)
		}
		return parseIDs(list), "", nil
	}
	ids, err := st.RunsWithLabel(sel)
	if err != nil {
		return nil, "", err
	}
	if isIDList(sel) {
		if len(ids) == 0 {
			return parseIDs(sel), "", nil
		}
		return ids, fmt.Sprintf("%q is a label of this library: took its %d runs (%s), not run ids %s; give %s%s for those",
			sel, len(ids), Selector(ids), sel, IDsPrefix, sel), nil
	}
	if len(ids) == 0 {
		labels, _ := st.Labels()
		quoted := make([]string, len(labels))
		for i, l := range labels {
			quoted[i] = strconv.Quote(l)
		}
		return nil, "", fmt.Errorf("no run has the label %q (labels in the library: %s)", sel, strings.Join(quoted, ", "))
	}
	return ids, "", nil
}

func parseIDs(list string) []int64 {
	var ids []int64
	for _, part := range strings.Split(list, ",") {
		id, _ := strconv.ParseInt(strings.TrimSpace(part), 10, 64)
		ids = append(ids, id)
	}
	return ids
}
