package library

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"benchlens/importers"
	"benchlens/importers/position"
	"benchlens/internal/par"
	"benchlens/model"
	"benchlens/store"
)

// A bundle of more than planAbove files is planned (importers.PlanBundle) and its runs read and
// stored a window at a time: an import holds the plan (names, kinds, a few fields a run) and a
// few windows of runs, not every run of the folder with its records and bytes. A smaller one
// is assembled whole, as it always was. A variable so that tests plan small bundles.
var planAbove = 512

// planKeep bounds the bytes of files a plan keeps read whole from its start, for its first
// windows: a folder of a thousand small results is parsed once, as when it was assembled
// whole.
var planKeep int64 = 16 << 20

// A window holds at most windowRuns runs or windowBytes bytes of result files, read, hashed,
// compressed and parsed on every core while the batch stores the window before it (variables
// so that tests cut small bundles into many windows).
var (
	windowRuns        = 256
	windowBytes int64 = 16 << 20
)

// window is runs ready to store, with the files they are read from prepared (hashed,
// compressed or stored ahead) and what went wrong with the files left out.
type window struct {
	items []importers.Item
	prep  func(name string) prepared
	errs  []error
}

// planned reads a window of the plan's runs whole: the window's result files (and their
// parts) are read, checked against the plan, hashed, compressed when small, and parsed, on
// every core. A file that cannot be read again, or changed, is said once and its runs left out.
func planned(plan *importers.Plan, w []importers.Item, entries []importers.Entry, ahead func(string) prepared) window {
	// Runs of one result file go together; each is copied, so that the plan keeps its few
	// fields and the window's runs and bytes go with the window.
	var groups [][]importers.Item
	for i := 0; i < len(w); {
		j := i + 1
		for j < len(w) && w[j].Result == w[i].Result {
			j++
		}
		groups = append(groups, slices.Clone(w[i:j]))
		i = j
	}
	preps := make([]map[string]prepared, len(groups))
	errs := make([]error, len(groups))
	par.Each(len(groups), 1, func(_, g int) {
		its := groups[g]
		files := map[*model.SourceFile]*model.SourceFile{}
		own := func(f *model.SourceFile) *model.SourceFile {
			if c, ok := files[f]; ok {
				return c
			}
			c := *f
			files[f] = &c
			return &c
		}
		prep := map[string]prepared{}
		var resultData []byte
		for _, f := range append([]*model.SourceFile{its[0].Result}, its[0].Parts...) {
			at, ok := plan.At(f.Name)
			if !ok { // every result and part of a planned run was planned from its entry
				errs[g] = &position.Error{File: f.Name, Offset: -1, Err: errors.New("not among the files planned")}
				return
			}
			e := entries[at] // a copy: the entry's bytes go with this window
			entries[at].Unload()
			err := e.Load()
			if err == nil {
				err = plan.Same(f.Name, e.Data)
			}
			var p prepared
			if err == nil {
				err = importers.Guard(f.Name, func() error {
					p = prepared{sha: hashDropping(e), later: true}
					if len(e.Data) < aheadAbove {
						p.packed = store.Pack(e.Data)
					}
					return nil
				})
			}
			if err != nil {
				errs[g] = err
				return
			}
			if p.packed == nil {
				own(f).Data = e.Data // stored from its bytes, in its run's transaction
			}
			prep[f.Name] = p
			if f == its[0].Result {
				resultData = e.Data
			}
		}
		if err := plan.Fill(its, resultData); err != nil {
			errs[g] = err
			return
		}
		for i := range its {
			its[i].Result = own(its[i].Result)
			its[i].Parts = slices.Clone(its[i].Parts)
			for k, f := range its[i].Parts {
				its[i].Parts[k] = own(f)
			}
		}
		preps[g] = prep
	})
	prep := map[string]prepared{}
	for _, p := range preps {
		maps.Copy(prep, p)
	}
	out := window{prep: func(name string) prepared {
		if p, ok := prep[name]; ok {
			return p
		}
		return ahead(name) // a file beside the runs
	}}
	for g, its := range groups {
		if errs[g] != nil {
			out.errs = append(out.errs, notStored(its[0].Result.Name, errs[g]))
			continue
		}
		out.items = append(out.items, its...)
	}
	return out
}

// notStored is the line for a result file of a plan left out, with its runs: the error when it
// names the file already (not read again, changed, cut short), else one that does.
func notStored(name string, err error) error {
	if pe := (*position.Error)(nil); errors.As(err, &pe) {
		return err
	}
	return fmt.Errorf("%s: not stored: %w", name, err)
}

// windowsOf reads the plan's runs a window at a time on another goroutine, one window ahead of
// the one being stored; ahead has the files beside the runs. It stops when quit is closed.
func windowsOf(plan *importers.Plan, entries []importers.Entry, ahead func(string) prepared, quit <-chan struct{}) <-chan window {
	out := make(chan window, 1)
	go func() {
		defer close(out)
		for _, w := range importers.Window(plan.Items, windowRuns, windowBytes) {
			select {
			case <-quit:
				return
			default:
			}
			select {
			case out <- planned(plan, w, entries, ahead):
			case <-quit:
				return
			}
		}
	}()
	return out
}
