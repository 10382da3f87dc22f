package library

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"benchlens/analysis/chart"
	"benchlens/analysis/compare"
	"benchlens/analysis/history"
	"benchlens/analysis/report"
	"benchlens/internal/textsafe"
	"benchlens/model"
	"benchlens/store"
)

// SeriesRuns are the runs of a series (METHOD.md rule 13): every run with the label, or
// whose bundle.yaml names the series, without their per-request samples, in import order. A
// name no run carries is an error naming the series there are.
func SeriesRuns(st *store.Store, name string) ([]*model.Run, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return nil, usageError{fmt.Errorf("history: give a series (a label or a bundle.yaml series: name)")}
	}
	all, err := st.Runs()
	if err != nil {
		return nil, err
	}
	var out []*model.Run
	names := map[string]bool{}
	for _, r := range all {
		if history.InSeries(r, name) {
			out = append(out, r)
		}
		names[r.Label] = true
		if s := history.SeriesOf(r); s != "" {
			names[s] = true
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no run is in the series %q (labels and series in the library: %s)", name,
			strings.Join(slices.Sorted(func(yield func(string) bool) {
				for n := range names {
					if !yield(n) {
						return
					}
				}
			}), ", "))
	}
	return out, nil
}

// History reads a series from the library and finds its change points, outliers and
// condition changes; each change point is judged by a comparison of its windows (rule 13)
// and carries its triage.
func History(st *store.Store, name string, set history.Settings, cset compare.Settings) (history.Report, error) {
	runs, err := SeriesRuns(st, name)
	if err != nil {
		return history.Report{}, err
	}
	conds, err := seriesConditions(st, runs)
	if err != nil {
		return history.Report{}, err
	}
	rep := history.Find(strings.TrimSpace(name), runs, conds, set)
	loaded := map[int64]compare.RunData{}
	arm := func(label string, ids []int64) (compare.Arm, error) {
		rds := make([]compare.RunData, len(ids))
		for i, id := range ids {
			rd, ok := loaded[id]
			if !ok {
				if rd, err = LoadRun(st, id); err != nil {
					return compare.Arm{}, err
				}
				loaded[id] = rd
			}
			rds[i] = rd
		}
		return compare.NewArm(label, rds), nil
	}
	for i := range rep.ChangePoints {
		cp := &rep.ChangePoints[i]
		before, err := arm("before "+cp.FirstDate, cp.Windows.Before)
		if err != nil {
			return rep, err
		}
		after, err := arm("from "+cp.FirstDate, cp.Windows.After)
		if err != nil {
			return rep, err
		}
		history.Explain(cp, before, after, cset)
	}
	return rep, applyTriage(st, &rep)
}

// SeriesNames are the series the library holds: every label and every bundle.yaml series
// name, sorted.
func SeriesNames(st *store.Store) ([]string, error) {
	runs, err := st.Runs()
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, r := range runs {
		if r.IsWarmup() {
			continue
		}
		seen[r.Label] = true
		if s := history.SeriesOf(r); s != "" {
			seen[s] = true
		}
	}
	delete(seen, "")
	out := make([]string, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	slices.Sort(out)
	return out, nil
}

// ExportHistory writes a series' history as a workbook ("xlsx": History and Change points
// sheets with native line charts) or Markdown ("md") to dest, whole or not at all; the
// library's own files are refused.
func ExportHistory(st *store.Store, rep history.Report, format, dest string) error {
	if err := CheckTarget(st.Path(), dest); err != nil {
		return err
	}
	var buf bytes.Buffer
	var err error
	switch format {
	case "xlsx":
		err = report.HistoryXLSX(&buf, rep)
	case "md":
		err = report.HistoryMarkdown(&buf, rep)
	default:
		return usageError{fmt.Errorf("history export: unknown format %q (xlsx, md)", format)}
	}
	if err != nil {
		return err
	}
	return writeFileAtomic(dest, buf.Bytes())
}

// ExportHistoryCharts draws the series' chart of each stage metric at each load point into
// dir (history-tpot-1.png: the metric and the load point's place in the series), checked and
// written as every export is (never over the library, a folder or a special file; all or
// nothing), and returns each file with what it shows.
func ExportHistoryCharts(st *store.Store, rep history.Report, dir string) ([]string, error) {
	var files []outFile
	var shown []string
	for i, point := range rep.LoadPoints {
		for _, m := range model.StageMetrics {
			p, err := chart.History(rep, m, point)
			if err != nil {
				continue // no run has the metric at this point
			}
			data, err := chart.PNG(p, 1000, 560)
			if err != nil {
				return nil, err
			}
			path := filepath.Join(dir, fmt.Sprintf("history-%s-%d.png", m.Key, i+1))
			files = append(files, outFile{path, data})
			shown = append(shown, fmt.Sprintf("%s (%s at %s)", path, m.Key, textsafe.Quote(point)))
		}
	}
	if err := writeAll(st.Path(), files, true); err != nil {
		return nil, err
	}
	return shown, nil
}

// conditionReaders is how many runs' evidence is read at once: on a team library each read
// is a round trip to the server, so a long series is read in parallel.
const conditionReaders = 8

// seriesConditions reads each run's conditions (compare.RunConditions) from its files'
// evidence, in the runs' order.
func seriesConditions(st *store.Store, runs []*model.Run) ([]map[string]string, error) {
	conds := make([]map[string]string, len(runs))
	errs := make([]error, len(runs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(conditionReaders, len(runs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				evs, err := st.RunEvidence(runs[i].ID)
				if err != nil {
					errs[i] = err
					continue
				}
				conds[i] = compare.RunConditions(runData(runs[i], evs))
			}
		}()
	}
	for i := range runs {
		next <- i
	}
	close(next)
	wg.Wait()
	return conds, errors.Join(errs...)
}
