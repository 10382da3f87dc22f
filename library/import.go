// Package library joins the stages for the command line and the desktop app, and is their one
// way into a library: Import reads bundles with importers, recomputes statistics with
// analysis/stats and stores runs with store; Rows, Labels, Relabel and DeleteRuns list and
// edit runs; LoadArm, Compare, SaveComparison and Comparisons load, judge and list
// comparisons; Sitting, Annotations and CurrentAnnotation carry the analyst's edits; Export
// and Recipe write what leaves the library. A front end renders what these return and
// decides nothing a saved record depends on; an operation both front ends need goes here.
package library

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"benchlens/analysis/compare"
	"benchlens/analysis/stats"
	"benchlens/importers"
	"benchlens/importers/position"
	"benchlens/model"
	"benchlens/store"
)

// Options adjust an import.
type Options struct {
	Label string     // overrides bundle.yaml and the files
	Role  model.Role // overrides bundle.yaml; "" keeps it
	// LabelBy says what names the arms when Label does not (default LabelByManifest); Groups
	// gives a group of that LabelBy (Plan.Groups' Key) the analyst's label and role.
	LabelBy LabelBy
	Groups  map[string]GroupChoice
	Limits  importers.Limits // zero means importers.DefaultLimits
	// Progress, if set, is called after each run is stored or skipped.
	Progress func(done, total int, name string)
	// Stop, if set, ends the import when closed (SIGINT, SIGTERM): the runs being stored are
	// finished, the rest are not started, and files stored ahead for them are removed.
	Stop <-chan struct{}
	// Batch bounds how many runs share a write transaction (zero: store.DefaultBatch).
	Batch store.BatchLimits
}

// ErrInterrupted is reported once when Stop ends an import early.
var ErrInterrupted = errors.New("import interrupted: the remaining inputs were not imported")

func stopped(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

// Report says what an import did. Errors are one line each, naming the file.
type Report struct {
	Added    []int64 // ids of new runs
	Existing []int64 // runs already in the library (same content)
	// Repeated are runs this import found twice in what it read (a sweep's summary.json and
	// its run=N.json files, a result copied into two folders): stored once, with Repeats
	// naming, one line per file, the runs it repeats.
	Repeated []int64
	Repeats  []string
	Errors   []error
	// Already says, one line per bundle, which runs were in the library already and, when
	// this import asked for another label or role than they have, that it was not applied.
	Already []string
	// Attached counts the files newly attached to runs already in the library (Already
	// names them).
	Attached int
	// Skipped names each input left out or kept unread on purpose (a link, a pipe, a file of
	// no known format), with what was done with it and why: one line each, not a refusal.
	Skipped []error
	// Unapplied are the bundles holding a manifest of runs already stored that this import did
	// not apply (ReapplyManifests applies it).
	Unapplied []string
}

// note files an error from the importers as a refusal or, for a file left unread on purpose,
// as a skip.
func (r *Report) note(errs ...error) {
	for _, err := range errs {
		if importers.IsSkip(err) {
			r.Skipped = append(r.Skipped, err)
		} else {
			r.Errors = append(r.Errors, err)
		}
	}
}

// Import reads every path (file, folder, .zip, .tar.gz) and stores its runs, many to a
// transaction and each one whole or not at all (store.Batch). A bad file is reported and the
// rest go on.
func Import(st *store.Store, paths []string, opt Options) Report {
	var rep Report
	lim := opt.Limits
	if lim == (importers.Limits{}) {
		lim = importers.DefaultLimits
	}
	if opt.Role != "" && !opt.Role.Valid() {
		rep.Errors = append(rep.Errors, fmt.Errorf("--role %q: expected baseline, candidate or other", opt.Role))
		return rep
	}
	if err := checkLabelBy(opt); err != nil {
		rep.Errors = append(rep.Errors, err)
		return rep
	}
	if err := st.Writable(); err != nil {
		rep.Errors = append(rep.Errors, err)
		return rep
	}
	own := ownFiles(st)
	for _, p := range paths {
		if stopped(opt.Stop) {
			break
		}
		entries, errs := importers.ListBundle(p, lim, own...)
		rep.note(errs...)
		if len(entries) == 0 && len(errs) == 0 {
			rep.Errors = append(rep.Errors, &position.Error{File: p, Offset: -1, Err: errors.New("no files")})
		}
		if len(entries) == 0 {
			continue
		}
		r := ImportEntries(st, absPath(p), entries, opt)
		rep.add(r)
		if slices.ContainsFunc(r.Errors, stopsImport) {
			break
		}
	}
	if stopped(opt.Stop) {
		rep.Errors = append(rep.Errors, ErrInterrupted)
	}
	return rep
}

// ownFiles are the library's file and side files as they are now: an import of the folder
// holding them never stores the library in itself.
func ownFiles(st *store.Store) []importers.OwnFile {
	var own []importers.OwnFile
	for i, p := range store.LibraryFiles(st.Path()) {
		if fi, err := os.Stat(p); err == nil {
			what := "the library this import writes to"
			if i > 0 {
				what = "a side file of the library this import writes to"
			}
			own = append(own, importers.OwnFile{Info: fi, What: what})
		}
	}
	return own
}

// stopsImport reports an error after which nothing more can be stored: the library's file
// was replaced under the import, or the team library stayed away.
func stopsImport(err error) bool {
	return errors.Is(err, store.ErrReplaced) || errors.Is(err, store.ErrUnreachable)
}

func (r *Report) add(o Report) {
	r.Added = append(r.Added, o.Added...)
	r.Existing = append(r.Existing, o.Existing...)
	r.Repeated = append(r.Repeated, o.Repeated...)
	r.Repeats = append(r.Repeats, o.Repeats...)
	r.Errors = append(r.Errors, o.Errors...)
	r.Already = append(r.Already, o.Already...)
	r.Attached += o.Attached
	r.Skipped = append(r.Skipped, o.Skipped...)
	r.Unapplied = append(r.Unapplied, o.Unapplied...)
}

// ImportEntries stores the runs of one bundle, read into memory (the embedded demo bundles, a
// dropped archive) or listed (ListBundle). A bundle of many files is planned first and its
// runs read and stored a window at a time (importers.Plan), so that what it holds at once is
// bounded by the window, not by the folder. The entries are the import's: their bytes are let
// go as their files are stored.
func ImportEntries(st *store.Store, bundle string, entries []importers.Entry, opt Options) Report {
	var rep Report
	lim := opt.Limits
	if lim == (importers.Limits{}) {
		lim = importers.DefaultLimits
	}
	if err := rekey(st); err != nil {
		rep.Errors = append(rep.Errors, err)
		return rep
	}
	entries, dupErrs := dropDuplicates(entries)
	rep.Errors = append(rep.Errors, dupErrs...)
	owner := store.NewOwner()
	var plan *importers.Plan
	if len(entries) > planAbove {
		var errs []error
		if plan, errs = importers.PlanBundle(entries, planKeep); plan != nil {
			rep.note(errs...)
		}
	}
	var items []importers.Item // every run: whole, or as planned
	var prep func(name string) prepared
	var settled func()
	ahead := entries // the files in memory the whole import, prepared ahead
	if plan == nil {
		var errs []error
		entries, errs = importers.LoadAll(entries)
		rep.Errors = append(rep.Errors, errs...)
		ahead = entries
		prep, settled = prepareAhead(st, owner, entries, opt.Stop)
		items, errs = importers.Assemble(entries)
		rep.note(errs...)
	} else {
		items = plan.Items
		ahead = besideRuns(entries, items)
		prep, settled = prepareAhead(st, owner, ahead, opt.Stop)
	}
	defer settled()
	queue := len(items) // a whole bundle's runs are all queued at once
	if plan != nil {
		queue = min(queue, 4*windowRuns) // a plan's a window at a time: the one stored, the next, room to spare
	}
	ready := recomputeAhead(queue)
	defer ready.close()
	if plan == nil {
		ready.ahead(items) // while the files are still being stored ahead
	}
	if len(items) == 0 && len(rep.Errors) == 0 {
		rep.Errors = append(rep.Errors, &position.Error{File: bundle, Offset: -1, Err: errors.New("no benchmark result found")})
	}
	fileID := func(name string) int64 { return prep(name).id }
	evidence, evErrs := readEvidence(st, items, lim, fileID)
	rep.Errors = append(rep.Errors, evErrs...)
	rep.Skipped = append(rep.Skipped, unserved(items, evidence)...)
	// Every file is stored by now; drop the bytes so a large bundle's memory is freed while
	// the statistics are recomputed.
	for i := range ahead {
		p := prep(ahead[i].Path)
		switch {
		case errors.Is(p.err, importers.ErrShrank):
			rep.Errors = appendOnce(rep.Errors, p.err) // parsing it likely faulted too: one line
		case p.err != nil && !errors.Is(p.err, ErrInterrupted) && !stopsImport(p.err): // said once, below
			rep.Errors = append(rep.Errors, fmt.Errorf("%s: not stored: %w", ahead[i].Path, p.err))
		}
		if p.later && p.packed == nil {
			continue // its bytes go with the run that keeps it
		}
		if ahead[i].Close != nil {
			ahead[i].Close()
		}
		ahead[i].Data = nil
	}
	for _, it := range items {
		for _, f := range append(append([]*model.SourceFile{it.Result}, it.Parts...), it.Attachments...) {
			if p := prep(f.Name); !p.later || p.packed != nil {
				f.Data = nil
			}
		}
	}
	defer func() {
		// A file whose bytes went with its run, and a plan's results (read window by window),
		// are let go once every run is stored (a file closed twice is closed once).
		for i := range entries {
			if p := prep(entries[i].Path); (p.later && p.packed == nil || plan != nil) && entries[i].Close != nil {
				entries[i].Close()
			}
		}
	}()
	// The runs come in windows: the whole bundle's as one, or a plan's read a window at a time.
	var windows <-chan window
	if plan == nil {
		whole := make(chan window, 1)
		whole <- window{items: items, prep: prep}
		close(whole)
		windows = whole
	} else {
		quit := make(chan struct{})
		windows = windowsOf(plan, entries, prep, quit)
		defer func() { // before the files are closed: the window being read is read whole
			close(quit)
			for range windows {
			}
		}()
	}
	var kept []alreadyStored
	seen := map[int64]bool{}        // runs this import stored or found stored
	repeats := map[string][]int64{} // a result's runs this import stored from another file
	var repeating []string          // those results, in order
	notAppliedSaid := map[string]bool{}
	names := labels(opt.LabelBy, func(yield func(found) bool) {
		for _, it := range items {
			if !yield(foundOf(bundle, it)) {
				return
			}
		}
	})
	batch := st.NewBatch(opt.Batch)
	var halted error // the library went away: what follows is not stored and said once
	done := 0
	stored := func(it importers.Item, prep func(string) prepared, asked bool, id int64, err error) {
		switch {
		case halted != nil:
			return // not stored either: "import stopped at" said so
		case errors.Is(err, store.ErrExists):
			again := seen[id]
			if again {
				rep.Repeated = append(rep.Repeated, id)
				if repeats[it.Result.Name] == nil {
					repeating = append(repeating, it.Result.Name)
				}
				repeats[it.Result.Name] = append(repeats[it.Result.Name], id)
			} else {
				rep.Existing = append(rep.Existing, id)
				seen[id] = true
			}
			// A log or trace put beside a result imported before joins the stored run.
			attached, notApplied, err := st.AttachFiles(id, itemFiles(it, prep, evidence))
			if err != nil {
				rep.Errors = append(rep.Errors, fmt.Errorf("%s: run %d: files beside it not attached: %w", it.Result.Name, id, err))
			}
			// A part of a result or a manifest changes what the run is: a stored run never
			// takes one later. One line per file (a manifest may stand beside many runs).
			for _, f := range notApplied {
				if notAppliedSaid[f.File.Name] {
					continue
				}
				notAppliedSaid[f.File.Name] = true
				why := fmt.Sprintf("a part of run %d's result, not applied: a re-import never changes a stored run (delete it and import again to read it)", id)
				if f.Role != model.FilePart {
					why = "a manifest of runs already in the library, not applied: a re-import never changes a stored run (apply it with import --reapply-manifests, or Apply the manifests in the import report)"
					if !slices.Contains(rep.Unapplied, bundle) {
						rep.Unapplied = append(rep.Unapplied, bundle)
					}
				}
				rep.Skipped = append(rep.Skipped, &position.Error{File: f.File.Name, Offset: -1, Err: &importers.Skip{Why: why}})
			}
			rep.Attached += len(attached)
			if !again {
				kept = append(kept, alreadyStored{id, asked, it.Run.Label, it.Run.Role, attached})
			}
		case errors.Is(err, store.ErrUnreachable):
			halted = err
			rep.Errors = append(rep.Errors, fmt.Errorf("import stopped at %s: %w; the files stored ahead for the rest go with the next import or check --repair", it.Result.Name, err))
		case stopsImport(err):
			halted = err
			rep.Errors = append(rep.Errors, fmt.Errorf("import stopped at %s: %w", it.Result.Name, err))
		case err != nil:
			rep.Errors = append(rep.Errors, fmt.Errorf("%s: run %d: not stored: %w", it.Result.Name, it.Index+1, err))
		default:
			rep.Added = append(rep.Added, id)
			seen[id] = true
		}
		done++
		if opt.Progress != nil && halted == nil {
			opt.Progress(done, len(items), it.Result.Name)
		}
	}
windows:
	for w := range windows {
		rep.Errors = append(rep.Errors, w.errs...)
		ready.ahead(w.items)
		for _, it := range w.items {
			if stopped(opt.Stop) || halted != nil {
				break windows
			}
			f := foundOf(bundle, it)
			asked := it.Run.Label != "" || opt.Label != "" || it.Run.Role != "" || opt.Role != "" ||
				opt.Groups[f.key(opt.LabelBy)] != (GroupChoice{}) || (opt.LabelBy != "" && opt.LabelBy != LabelByManifest)
			it.Run.Bundle = bundle
			armOf(it.Run, f, names, opt)
			it.Run.Precision, it.Run.PrecisionFrom = precisionOf(it, evidence)
			it.Run.Label = store.NormLabel(it.Run.Label) // before its row is encoded
			// The files first: itemFiles gives each its SHA-256, by which a run that measured
			// nothing is known (keyed before it, two such files of the same tool, model, date
			// and counts were one run).
			files := itemFiles(it, w.prep, evidence)
			batch.Add(store.NewRun{Run: it.Run, Fingerprint: Fingerprint(it.Run, files[0].File.SHA256, it.Index), Index: it.Index,
				Files: files, Ready: ready.add(it.Run)},
				func(id int64, err error) { stored(it, w.prep, asked, id, err) })
		}
	}
	batch.Flush()
	for _, name := range repeating {
		rep.Repeats = append(rep.Repeats, repeatLine(name, repeats[name]))
	}
	if len(kept) > 0 {
		rep.Already = append(rep.Already, alreadyLine(st, bundle, kept))
	}
	// Files no run took go, with this import's claims (never a file another import claims).
	if _, err := st.ReleaseFiles(owner); err != nil && !stopsImport(err) {
		rep.Errors = append(rep.Errors, fmt.Errorf("%s: removing files no run took: %w", bundle, err))
	}
	return rep
}

// besideRuns are the entries no run of a plan is read from, read when planned: the files kept
// beside the runs (logs, traces, manifests), prepared ahead as a bundle's files are. Their
// bytes go with them: entries keeps those of the results alone, for the windows.
func besideRuns(entries []importers.Entry, items []importers.Item) []importers.Entry {
	read := map[string]bool{}
	for _, it := range items {
		read[it.Result.Name] = true
		for _, f := range it.Parts {
			read[f.Name] = true
		}
	}
	var out []importers.Entry
	for i, e := range entries {
		if !read[e.Path] && (e.Data != nil || !e.Listed()) {
			out = append(out, e)
			entries[i].Data = nil
		}
	}
	return out
}

// dropDuplicates keeps the first of entries sharing a path (a zip may hold two entries of one
// name) and refuses the others with a line each: both runs would otherwise be read from one
// entry's bytes. Entries of no shared path are returned as they are, not copied: the caller
// holds them for the import, and a copy was a second 72 bytes a file of a folder.
func dropDuplicates(entries []importers.Entry) ([]importers.Entry, []error) {
	seen := make(map[string]bool, len(entries))
	for _, e := range entries {
		seen[e.Path] = true
	}
	if len(seen) == len(entries) {
		return entries, nil
	}
	clear(seen)
	var errs []error
	kept := make([]importers.Entry, 0, len(seen))
	for _, e := range entries {
		if seen[e.Path] {
			errs = append(errs, &position.Error{File: e.Path, Offset: -1,
				Err: errors.New("a second entry of this name in one bundle: not imported (the first is)")})
			if e.Close != nil {
				e.Close()
			}
			continue
		}
		seen[e.Path] = true
		kept = append(kept, e)
	}
	return kept, errs
}

// prepared is a file hashed and stored ahead of its runs. A small file, and one no format
// recognises, is only hashed (later): it is stored with the first run that keeps it beside
// itself, in that run's transaction, or never, so a folder of junk costs the library nothing.
// Stored ahead, a small result cost its own transaction's writes, a claim, and its kind set
// again with its run: more than the file itself. A small file is compressed here all the
// same (packed), on this core, and its bytes go once it is read.
type prepared struct {
	sha    string
	id     int64
	err    error
	later  bool
	packed []byte
}

// prepareAhead hashes, compresses and stores the bundle's files on another core while this
// one parses, each claimed for owner until ReleaseFiles, many to a transaction (up to
// aheadFiles files or aheadBytes bytes), then copies them from SQLite's log into the library
// file there too (Store.Checkpoint), not in the runs' commit, which has the core to itself.
// prep waits for a file's work; the files' bytes are released once both are done. The
// checkpoint goes on while the runs are written (a checkpoint never waits for a writer, nor
// one for it; SQLite's own at the runs' commit copies only what this one has not): settled
// waits for it, before the import returns.
func prepareAhead(st *store.Store, owner string, entries []importers.Entry, stop <-chan struct{}) (prep func(name string) prepared, settled func()) {
	out := make(map[string]prepared, len(entries))
	done, checkpointed := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(checkpointed)
		var gone error // the library went away: nothing more is tried
		stored := false
		var group []store.Put
		var paths []string
		size := 0
		put := func() {
			if len(group) == 0 {
				return
			}
			ids, errs := st.PutFiles(group, owner, importers.Guard)
			stored = true
			for i, p := range paths {
				out[p] = prepared{sha: group[i].File.SHA256, id: ids[i], err: errs[i]}
				if stopsImport(errs[i]) {
					gone = errs[i]
				}
			}
			group, paths, size = nil, nil, 0
		}
		for _, e := range entries {
			switch {
			case stopped(stop):
				out[e.Path] = prepared{err: ErrInterrupted}
				continue
			case gone != nil:
				out[e.Path] = prepared{err: gone}
				continue
			}
			f := importers.NewSourceFile(e.Path, e.Data)
			later := false
			var packed []byte
			err := importers.Guard(e.Path, func() error {
				f.SHA256 = hashDropping(e)
				if later = len(e.Data) < aheadAbove; later {
					packed = store.Pack(e.Data)
				} else {
					later = !importers.Recognised(e)
				}
				return nil
			})
			if err != nil || later {
				out[e.Path] = prepared{sha: f.SHA256, err: err, later: later, packed: packed}
				continue
			}
			group, paths, size = append(group, store.Put{File: f, Drop: e.Drop}), append(paths, e.Path), size+len(e.Data)
			if len(group) >= aheadFiles || size >= aheadBytes {
				put()
			}
		}
		put()
		close(done)
		if stored && gone == nil {
			st.Checkpoint() // a checkpoint not made now is made at the next commit
		}
	}()
	return func(name string) prepared {
			<-done
			return out[name]
		}, func() {
			<-checkpointed
		}
}

// A transaction of files stored ahead holds at most aheadFiles files or aheadBytes bytes;
// files below aheadAbove bytes go with their runs.
const (
	aheadAbove = 256 << 10
	aheadFiles = 256
	aheadBytes = 32 << 20
)

// hashDropping hashes a file a chunk at a time, letting a mapped file's pages go behind it.
func hashDropping(e importers.Entry) string {
	if e.Drop == nil || len(e.Data) <= chunk {
		return importers.Hash(e.Data)
	}
	h := sha256.New()
	for off := 0; off < len(e.Data); off += chunk {
		end := min(off+chunk, len(e.Data))
		h.Write(e.Data[off:end])
		e.Drop(end)
	}
	return hex.EncodeToString(h.Sum(nil))
}

const chunk = 16 << 20

// recomputer recomputes the statistics of a bundle's runs one after another on another core
// as soon as they are parsed (a whole bundle's while its files are still being stored ahead),
// and encodes each run's row, with its measured statistics (taken over a copy of the run), on
// a third goroutine once the import has given the run its label and the rest (the batch's
// core has the SQL to do): Ready waits for a run's row. The two are apart because the
// statistics need only what was parsed and the row needs what came after.
type recomputer struct {
	stats  chan *recompute // in the order queued
	encode chan *recompute
	queued map[*model.Run]*recompute // queued, not yet added; the import's goroutine's own
	quit   chan struct{}             // the import is over: what is left is not wanted
}

type recompute struct {
	run        *model.Run
	recomputed chan struct{}     // closed once the run's statistics are in it
	cols       *store.RunColumns // nil: the batch encodes the run (and says why not)
	done       chan struct{}     // closed once cols is set
}

// recomputeAhead starts a recomputer that queues up to n runs without waiting: past them, a
// run is queued once the statistics of the first of those are in. A planned import queues a
// window at a time and so needs no more than a few windows' runs; its queues
// sized for every run of the folder held 60 bytes a run of 100,000 for the whole import.
func recomputeAhead(n int) *recomputer {
	r := &recomputer{stats: make(chan *recompute, n), encode: make(chan *recompute, n),
		queued: make(map[*model.Run]*recompute, n), quit: make(chan struct{})}
	go func() {
		for w := range r.stats {
			if !stopped(r.quit) && w.run.Sampled == nil { // a sample never stands for the run (model.Run.Used)
				stats.Recompute(w.run)
			}
			close(w.recomputed)
		}
	}()
	go func() {
		for w := range r.encode {
			select {
			case <-w.recomputed:
				if w.run.Sampled == nil {
					// Here, not with the statistics: it copies the whole run, which the
					// import gives its label and the rest until the run is queued.
					w.run.Measured = measuredAsStored(w.run)
				}
				w.cols, _ = store.EncodeRun(w.run)
			case <-r.quit:
			}
			close(w.done)
		}
	}()
	return r
}

// ahead queues the statistics of the items' runs not queued yet.
func (r *recomputer) ahead(items []importers.Item) {
	for _, it := range items {
		r.queue(it.Run)
	}
}

func (r *recomputer) queue(run *model.Run) *recompute {
	if w := r.queued[run]; w != nil {
		return w
	}
	w := &recompute{run: run, recomputed: make(chan struct{}), done: make(chan struct{})}
	r.queued[run] = w
	r.stats <- w
	return w
}

// measuredAsStored computes what a compare of many runs reads of a run instead of its
// requests (model.MeasuredStats) from its requests as the library will give them back, so
// they are the floats the compare would compute; the copy is let go once they are taken. A
// run of more than measuredGapsCap gaps stores none: taking them cost the 112 MB result's
// import (the stretch of issue 29, item 1) a fifth more CPU, where its compare, which
// computes them instead, loads every one of its gaps anyway.
func measuredAsStored(run *model.Run) *model.MeasuredStats {
	if gapsOf(run) > measuredGapsCap {
		return nil
	}
	stored := *run
	stored.Requests = store.AsStored(run.Requests)
	return compare.MeasuredStatsOf(&stored)
}

// measuredGapsCap is the most gaps a run whose statistics are stored has (see
// measuredAsStored, measureUnstored): a thousand requests of a thousand tokens.
const measuredGapsCap = 1 << 20

func gapsOf(run *model.Run) int {
	n := 0
	for i := range run.Requests {
		n += len(run.Requests[i].ITL)
	}
	return n
}

// add queues a run's row, to be encoded once its statistics are in, and returns the wait
// for it.
func (r *recomputer) add(run *model.Run) func() *store.RunColumns {
	w := r.queue(run)
	delete(r.queued, run) // a run is added once: what it holds goes with its batch
	r.encode <- w
	return func() *store.RunColumns {
		<-w.done
		return w.cols
	}
}

func (r *recomputer) close() {
	close(r.quit)
	close(r.stats)
	close(r.encode)
}

// itemFiles lists an item's files with their roles, the result first, each with the hash it
// was stored ahead under and what it says (stored in the run's own transaction).
func itemFiles(it importers.Item, prep func(string) prepared, evidence map[string]*model.Evidence) []store.Attached {
	attach := func(f *model.SourceFile, role model.FileRole) store.Attached {
		p := prep(f.Name)
		f.SHA256 = p.sha
		return store.Attached{File: f, Role: role, Evidence: evidence[f.Name], Packed: p.packed}
	}
	files := []store.Attached{attach(it.Result, model.FileResult)}
	for _, f := range it.Parts {
		files = append(files, attach(f, model.FilePart))
	}
	for _, f := range it.Attachments {
		files = append(files, attach(f, model.FileAttachment))
	}
	return files
}

// bundleName is the label a bundle gives its runs when it names none: its folder's name, or an
// archive's or a single result file's without the extension, so that the three agree.
func bundleName(bundle string) string {
	name := path.Base(filepath.ToSlash(filepath.Clean(bundle)))
	lower := strings.ToLower(name)
	for _, ext := range []string{".tar.gz", ".tgz", ".zip", ".tar", ".gz", ".jsonl", ".json"} {
		if strings.HasSuffix(lower, ext) && len(name) > len(ext) {
			name = name[:len(name)-len(ext)]
			lower = lower[:len(lower)-len(ext)]
		}
	}
	return name
}

// appendOnce adds err unless an error with the same text is there already.
func appendOnce(errs []error, err error) []error {
	for _, e := range errs {
		if e.Error() == err.Error() {
			return errs
		}
	}
	return append(errs, err)
}
