package library

import (
	"benchlens/analysis/shape"
	"benchlens/importers"
	"benchlens/model"
	"benchlens/store"
)

// readEvidence reads the evidence of the items' attachments (every log, utilisation trace,
// profiler trace, … and multi-file capture) once, classifies utilisation shapes with the default thresholds, and returns the evidence
// by file name, to be stored with the runs that take them. Files the library has already
// read are skipped.
func readEvidence(st *store.Store, items []importers.Item, lim importers.Limits, fileID func(string) int64) (map[string]*model.Evidence, []error) {
	out := map[string]*model.Evidence{}
	var errs []error
	for _, it := range items {
		for _, r := range it.Readings {
			f := r.Files[0] // a capture's evidence is stored with its first file
			if _, done := out[f.Name]; done || f.Data == nil {
				continue
			}
			if id := fileID(f.Name); id > 0 {
				if has, err := st.HasEvidence(id); err == nil && has {
					out[f.Name] = nil
					continue
				}
			}
			var ev *model.Evidence
			err := importers.Guard(f.Name, func() (err error) {
				ev, err = importers.ReadEvidence(r, lim)
				return err
			})
			if err != nil {
				errs = append(errs, err)
				out[f.Name] = nil
				continue
			}
			if ev != nil && ev.Utilisation != nil && !ev.Utilisation.Snapshot {
				classify(ev.Utilisation)
			}
			if ev != nil && ev.Trace != nil && ev.Trace.Timeline != nil {
				classify(ev.Trace.Timeline)
			}
			out[f.Name] = ev
		}
	}
	return out, errs
}

// classify gives each device of a busy timeline its shape (METHOD.md rule 8).
func classify(u *model.UtilEvidence) {
	for i := range u.Devices {
		d := &u.Devices[i]
		sh := shape.ClassifyRun(*d, shape.DefaultThresholds)
		d.Shape = &sh
	}
}
