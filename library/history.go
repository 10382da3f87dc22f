package library

import (
	"bytes"
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"benchlens/analysis/chart"
	"benchlens/analysis/compare"
	"benchlens/analysis/history"
	"benchlens/analysis/report"
	"benchlens/analysis/slo"
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
	found, err := st.SeriesRuns(name, func(m model.Manifest) bool { return history.SeriesIn(m) == name })
	if err != nil {
		return nil, err
	}
	out := slices.DeleteFunc(found, func(r *model.Run) bool { return !history.InSeries(r, name) })
	if len(out) == 0 {
		names, err := SeriesNames(st)
		if err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("no run is in the series %q (labels and series in the library: %s)", name, strings.Join(names, ", "))
	}
	return out, nil
}

// History reads a series from the library and finds its change points, outliers and
// condition changes; each change point is judged by a comparison of its windows (rule 13)
// and carries its triage.
func History(st *store.Store, name string, set history.Settings, cset compare.Settings) (history.Report, error) {
	rep, runs, err := ReadHistory(st, name, set)
	if err != nil {
		return rep, err
	}
	return ExplainHistory(st, rep, runs, cset)
}

// ReadHistory reads a series and finds its change points and outliers, with their triage,
// but neither the timeline nor the evidence of each step (ExplainHistory adds them): all a
// chart of the series needs, read without the runs' evidence. It returns the series' runs
// for ExplainHistory.
func ReadHistory(st *store.Store, name string, set history.Settings) (history.Report, []*model.Run, error) {
	runs, err := SeriesRuns(st, name)
	if err != nil {
		return history.Report{}, nil, err
	}
	rep := history.Find(strings.TrimSpace(name), runs, nil, set)
	return rep, runs, applyTriage(st, &rep)
}

// ReadHistoryOf is ReadHistory searching one stage metric only: the one a chart draws first
// (a search is most of the time a long series takes once read). SearchHistory adds the
// others.
func ReadHistoryOf(st *store.Store, name string, set history.Settings, first model.StageMetric) (history.Report, []*model.Run, error) {
	runs, err := SeriesRuns(st, name)
	if err != nil {
		return history.Report{}, nil, err
	}
	rep := history.FindOf(strings.TrimSpace(name), runs, set, first)
	return rep, runs, applyTriage(st, &rep)
}

// SearchHistory is a report of ReadHistoryOf with the other stage metrics searched too, with
// their triage: ReadHistory's report. The report given is not changed.
func SearchHistory(st *store.Store, rep history.Report, set history.Settings, first model.StageMetric) (history.Report, error) {
	rest := slices.DeleteFunc(slices.Clone(model.StageMetrics), func(m model.StageMetric) bool { return m.Key == first.Key })
	rep = rep.Searched(set, rest...)
	return rep, applyTriage(st, &rep)
}

// ExplainHistory is a report of ReadHistory with, when the settings set an SLO, each run's
// attainment and goodput under it and their change points (rule 14 in rule 13), the timeline
// of condition changes, and each change point judged by a comparison of its windows. The
// report given is not changed.
func ExplainHistory(st *store.Store, rep history.Report, runs []*model.Run, cset compare.Settings) (history.Report, error) {
	if objective, _ := model.ParseSLO(cset.SLO); len(objective) > 0 {
		judged, err := seriesSLO(st, runs, objective)
		if err != nil {
			return rep, err
		}
		rep = rep.WithSLO(objective, judged, rep.Settings)
		if err := applyTriage(st, &rep); err != nil {
			return rep, err
		}
	}
	conds, err := seriesConditions(st, runs)
	if err != nil {
		return rep, err
	}
	rep = rep.WithConditions(runs, conds)
	rep.ChangePoints = slices.Clone(rep.ChangePoints)
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
	return rep, nil
}

// exportHistories are the series the exported comparisons' runs belong to (a run's manifest
// series, else its label), each at the load points of the compared runs: the History sheet of
// the comparisons' workbook. A series no longer than the compared runs of it has no history to
// show and is left out.
func exportHistories(st *store.Store, entries []report.Entry) ([]history.Report, error) {
	compared := map[string]map[int64]bool{} // series → its compared runs
	var names []string
	for _, e := range entries {
		for _, r := range e.Runs {
			if r.IsWarmup() {
				continue
			}
			name := cmp.Or(history.SeriesOf(r), r.Label)
			if compared[name] == nil {
				compared[name] = map[int64]bool{}
				names = append(names, name)
			}
			compared[name][r.ID] = true
		}
	}
	cset, err := Settings(st)
	if err != nil {
		return nil, err
	}
	var out []history.Report
	for _, name := range names {
		rep, runs, err := ReadHistory(st, name, history.DefaultSettings)
		if err != nil {
			return nil, err
		}
		if len(runs) <= len(compared[name]) {
			continue
		}
		if rep, err = ExplainHistory(st, rep, runs, cset); err != nil {
			return nil, err
		}
		var points []string
		for _, r := range rep.Runs {
			if compared[name][r.ID] && !slices.Contains(points, r.LoadPoint) {
				points = append(points, r.LoadPoint)
			}
		}
		out = append(out, rep.AtLoadPoints(points...))
	}
	return out, nil
}

// SeriesNames are the series the library holds: every label and every bundle.yaml series
// name of its measured runs, sorted. They are read of the distinct labels and manifests the
// runs carry (store.SeriesKeys), not out of a listing of every run.
func SeriesNames(st *store.Store) ([]string, error) {
	keys, err := st.SeriesKeys()
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, l := range keys.Labels {
		seen[l] = true
	}
	for _, m := range keys.Manifests {
		seen[history.SeriesIn(m)] = true
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
		for _, m := range rep.Metrics() {
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

// seriesSLO judges each run of a series against the SLO (compare.RunSLO: its attainment and
// goodput over the requests rule 2 keeps), its requests read for the whole series at once.
func seriesSLO(st *store.Store, runs []*model.Run, objective model.SLO) (map[int64]slo.RunResult, error) {
	ids := make([]int64, len(runs))
	for i, r := range runs {
		ids[i] = r.ID
	}
	reqs, err := st.SeriesRequests(ids)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]slo.RunResult, len(runs))
	for _, r := range runs {
		withRequests := *r // the series' runs are shared: a copy carries the requests
		withRequests.Requests = reqs[r.ID]
		out[r.ID] = compare.RunSLO(compare.RunData{Run: &withRequests}, objective)
	}
	return out, nil
}

// seriesConditions reads each run's conditions (compare.RunConditions) from its files'
// evidence, in the runs' order: the whole series' evidence in one read (on a team library
// each read is a round trip to the server).
func seriesConditions(st *store.Store, runs []*model.Run) ([]map[string]string, error) {
	ids := make([]int64, len(runs))
	for i, r := range runs {
		ids[i] = r.ID
	}
	evs, err := st.SeriesEvidence(ids)
	if err != nil {
		return nil, err
	}
	conds := make([]map[string]string, len(runs))
	for i, r := range runs {
		conds[i] = compare.RunConditions(runData(r, evs[r.ID]))
	}
	return conds, nil
}
