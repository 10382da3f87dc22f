package library

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"

	"benchlens/analysis/chart"
	"benchlens/analysis/history"
	"benchlens/analysis/report"
	"benchlens/model"
	"benchlens/store"
)

// Export formats.
const (
	FormatXLSX = "xlsx"
	FormatYAML = "yaml"
	FormatCSV  = "csv" // dest is a folder
	FormatMD   = "md"
	FormatPNG  = "png" // dest is a folder; SVG files are written beside the PNGs
)

// ExportOptions adjust an export.
type ExportOptions struct {
	IDs      []int64 // comparisons to export; none means all saved ones
	Requests bool    // xlsx: add the per-request sheet
	Force    bool    // replace existing files (never the library itself)
}

// Export writes saved comparisons to dest in one format. Every file is checked before any is
// written: never the library or its -wal/-shm/-journal, and no existing file unless
// opt.Force. Files are written whole or not at all (through a temporary file renamed into
// place).
func Export(st *store.Store, format, dest string, opt ExportOptions) error {
	entries, err := Entries(st, opt.IDs, format == FormatXLSX)
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return fmt.Errorf("no saved comparison to export (compare --save, or Save in the app)")
	}
	var files []outFile
	switch format {
	case FormatCSV:
		err = report.CSV(entries, func(name string, data []byte) error {
			files = append(files, outFile{filepath.Join(dest, name), data})
			return nil
		})
	case FormatPNG:
		files, err = renderCharts(st, dest, entries)
	default:
		var buf bytes.Buffer
		switch format {
		case FormatXLSX:
			var hist []history.Report
			if hist, err = exportHistories(st, entries); err != nil {
				return err
			}
			err = report.XLSX(&buf, entries, report.XLSXOptions{Requests: opt.Requests, History: hist})
		case FormatYAML:
			err = report.YAMLEntries(&buf, entries)
		case FormatMD:
			err = report.Markdown(&buf, entries)
		default:
			return fmt.Errorf("unknown export format %q", format)
		}
		files = []outFile{{dest, buf.Bytes()}}
	}
	if err != nil {
		return err
	}
	return writeAll(st.Path(), files, opt.Force)
}

// Entries loads saved comparisons with their annotations and runs, for the report writers.
// withRequests loads the runs' per-request samples too (the xlsx CDF sheets use them).
func Entries(st *store.Store, ids []int64, withRequests bool) ([]report.Entry, error) {
	if len(ids) == 0 {
		list, err := st.Comparisons(false)
		if err != nil {
			return nil, err
		}
		for _, c := range list {
			ids = append(ids, c.ID)
		}
	}
	runs := map[int64]*model.Run{}
	files := map[int64][]string{}
	var out []report.Entry
	for _, id := range ids {
		c, rec, err := SavedRecord(st, id)
		if err != nil {
			return nil, err
		}
		// A run deleted since is left out, said in the record's warnings: the saved verdict
		// still exports, and so do the other comparisons.
		gone, err := st.GoneRuns(c)
		if err != nil {
			return nil, err
		}
		for _, g := range gone {
			rec.Warnings = append(rec.Warnings, model.Warn(model.WarnRunGone, g.ID, g.Why))
		}
		c.BaselineRuns, c.CandidateRuns = present(c.BaselineRuns, gone), present(c.CandidateRuns, gone)
		if !hasRecipe(rec.Reproduce) && len(c.BaselineRuns) > 0 && len(c.CandidateRuns) > 0 { // saved before records carried it
			if rec.Reproduce, err = Recipe(st, IDSelector(c.BaselineRuns), IDSelector(c.CandidateRuns)); err != nil {
				return nil, fmt.Errorf("comparison %d: %w", id, err)
			}
		}
		e := report.Entry{ID: c.ID, SavedAt: c.CreatedAt, Record: rec, Files: map[int64][]string{}, Benchlens: Version()}
		hist, err := st.Annotations(id)
		if err != nil {
			return nil, err
		}
		for _, a := range hist {
			e.History = append(e.History, report.Annotation{At: a.At, Author: a.Author, Note: a.Note, Tags: a.Tags,
				StatusOverride: a.StatusOverride, OverrideReason: a.OverrideReason})
		}
		if len(e.History) > 0 {
			e.Annotation = e.History[len(e.History)-1]
		}
		for _, rid := range append(append([]int64(nil), c.BaselineRuns...), c.CandidateRuns...) {
			r, ok := runs[rid]
			if !ok {
				if withRequests {
					r, err = st.Run(rid)
				} else {
					r, err = st.RunHeader(rid)
				}
				if err != nil {
					return nil, fmt.Errorf("comparison %d: %w", id, err)
				}
				runs[rid] = r
				fs, err := st.RunFiles(rid)
				if err != nil {
					return nil, err
				}
				for _, f := range fs {
					files[rid] = append(files[rid], f.Name)
				}
			}
			e.Runs = append(e.Runs, r)
			e.Files[rid] = files[rid]
		}
		out = append(out, e)
	}
	return out, nil
}

// present returns the ids not among the gone runs.
func present(ids []int64, gone []store.GoneRun) []int64 {
	return slices.DeleteFunc(slices.Clone(ids), func(id int64) bool {
		return slices.ContainsFunc(gone, func(g store.GoneRun) bool { return g.ID == id })
	})
}

// renderCharts renders every comparison's charts as PNG and SVG into dir, from the renderer
// the app uses. A comparison one of whose arms has no run left in the library has none.
func renderCharts(st *store.Store, dir string, entries []report.Entry) ([]outFile, error) {
	var files []outFile
	for _, e := range entries {
		held := func(ids []int64) []int64 {
			return slices.DeleteFunc(slices.Clone(ids), func(id int64) bool {
				return !slices.ContainsFunc(e.Runs, func(r *model.Run) bool { return r.ID == id })
			})
		}
		baseRuns, candRuns := held(e.Record.Arms.Baseline.Runs), held(e.Record.Arms.Candidate.Runs)
		if len(baseRuns) == 0 || len(candRuns) == 0 {
			continue
		}
		base, err := LoadArm(st, IDSelector(baseRuns))
		if err != nil {
			return nil, err
		}
		cand, err := LoadArm(st, IDSelector(candRuns))
		if err != nil {
			return nil, err
		}
		plots, _, err := chart.ForComparison(base, cand, e.Record, chart.Options{})
		if err != nil {
			return nil, fmt.Errorf("comparison %d: %w", e.ID, err)
		}
		// A chart file travels alone: its title says which comparison and what verdict.
		pair := fmt.Sprintf("#%d %s vs %s", e.ID, e.Record.Arms.Baseline.Label, e.Record.Arms.Candidate.Label)
		about := pair + ": " + strings.ReplaceAll(string(e.Status()), "_", " ")
		add := func(stem, about string, plots map[string]*plot.Plot) error {
			for name, p := range plots {
				p.Title.Text += "\n" + about
				path := filepath.Join(dir, stem+name)
				png, err := chart.PNG(p, 1200, 750)
				if err != nil {
					return err
				}
				svg, err := chart.SVG(p, 1200, 750)
				if err != nil {
					return err
				}
				files = append(files, outFile{path + ".png", png}, outFile{path + ".svg", svg})
			}
			return nil
		}
		if err := add(fmt.Sprintf("comparison-%d-", e.ID), about, plots); err != nil {
			return nil, err
		}
		// A sweep's distributions, stages, buckets and spread per load point, as the app
		// shows them: comparison-3-point2-tpot_cdf.png is the second point's TPOT CDFs.
		for i, lp := range e.Record.LoadPoints {
			at, _, err := chart.ForPoint(base, cand, e.Record, i, chart.Options{})
			if err != nil {
				return nil, fmt.Errorf("comparison %d at %s: %w", e.ID, lp.Label, err)
			}
			for name := range at {
				if strings.HasPrefix(name, "load_") { // the sweep's own, written above
					delete(at, name)
				}
			}
			if err := add(fmt.Sprintf("comparison-%d-point%d-", e.ID, i+1), fmt.Sprintf("%s at %s: %s", pair, lp.Label, strings.ReplaceAll(string(lp.Status), "_", " ")), at); err != nil {
				return nil, err
			}
		}
	}
	return files, nil
}
