package importers

import (
	"benchlens/importers/format"
	"benchlens/importers/position"
	"benchlens/importers/result"
	"benchlens/internal/par"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"sort"
	"strings"

	"benchlens/model"
)

// Item is one run ready to store, with every file it came from or that belongs to it.
type Item struct {
	Run         *model.Run
	Index       int               // position of the run inside its result file
	Result      *model.SourceFile // the file the run was read from
	Parts       []*model.SourceFile
	Attachments []*model.SourceFile // logs, traces, utilisation, manifests beside or above it
	// Climbed are the attachments that came from a folder of no run, climbing to the nearest
	// folder above with runs (a run's logs/ beside its results/): beside no result, they are
	// checked against what they say before a run keeps them (library.unserved).
	Climbed []*model.SourceFile
	// Readings are the evidence among the attachments, for ReadEvidence: one per file, or one
	// per multi-file capture.
	Readings []Reading
	// Planned is what a Plan keeps of the run until Fill reads it whole; Run is nil till then.
	Planned Planned
}

// Planned is what a plan's grouping read of a run and decided for it: a few strings and the
// manifest, where a whole model.Run (most of it empty) held them at about 600 bytes a file.
type Planned struct {
	Tool, Model, Label string
	Role               model.Role
	Manifest           model.Manifest
	Phase, PhaseWhy    string
}

// headOf is what the grouping reads of a run and may change: its head.
func headOf(run *model.Run) Planned {
	return Planned{Tool: run.Tool, Model: run.Model, Label: run.Label, Role: run.Role,
		Manifest: run.Manifest, Phase: run.Phase, PhaseWhy: run.PhaseWhy}
}

// apply gives run what the grouping decided for it.
func (p *Planned) apply(run *model.Run) {
	run.Manifest, run.Label, run.Role = p.Manifest, p.Label, p.Role
	run.Phase, run.PhaseWhy = p.Phase, p.PhaseWhy
}

// Arm is a run's model, label and manifest, as the grouping left them: from its Run, or from
// what a plan kept of it.
func (it Item) Arm() (modelName, label string, manifest model.Manifest) {
	if it.Run != nil {
		return it.Run.Model, it.Run.Label, it.Run.Manifest
	}
	return it.Planned.Model, it.Planned.Label, it.Planned.Manifest
}

// identifyGrain is the fewest files Assemble has a core identify: a bundle of a result and
// its log is read in order.
const identifyGrain = 8

// Assemble identifies a bundle's entries (Formats) and groups them into runs: each result is
// a run (a file holding several results gives several), per-request companions join their
// summary, and logs, traces and manifests attach to the runs in their folder and below.
// Manifests are merged from the top down, the nearest winning key by key.
func Assemble(entries []Entry) ([]Item, []error) {
	// Each file is identified and parsed on its own, on every core (a folder of small results
	// is mostly that); what joins them is done by group, in the bundle's order.
	ids := make([]identified, len(entries))
	par.Each(len(entries), identifyGrain, func(_, i int) { ids[i] = identifyEntry(entries[i], false) })
	items, errs := group(entries, ids)
	for i := range items {
		result.Settle(items[i].Run)
	}
	return items, errs
}

// identified is what a file was read as: its format's row and what that read, or the error.
// A plan keeps only its runs' heads (p.Runs nil): a head is a fifth of a model.Run.
type identified struct {
	row   *Format
	p     format.Parsed
	heads []Planned
	err   error
}

// runHeads are the heads of the file's runs, as a plan kept them or as its runs give them.
func (id *identified) runHeads() []Planned {
	if id.heads != nil || id.p.Runs == nil {
		return id.heads
	}
	heads := make([]Planned, len(id.p.Runs))
	for i, r := range id.p.Runs {
		heads[i] = headOf(r)
	}
	return heads
}

// identifyEntry identifies and reads an entry; planning, only for what a plan groups by
// (Format.Plan) where a format can.
func identifyEntry(e Entry, planning bool) (id identified) {
	id.err = Guard(e.Path, func() (err error) {
		id.row, id.p, err = identifyFor(&format.File{Name: e.Path, Data: e.Data, Drop: e.Drop}, planning)
		return err
	})
	return id
}

// group joins a bundle's files, as identified, into runs (Assemble's joining, without the
// Settle each run then gets): it decides each run's Manifest, Label, Role, Phase and PhaseWhy
// on its head (Item.Planned), given to the runs read whole, and changes their Warnings and,
// through a part, their records (Plan reads no bundle with parts, and keeps only heads).
func group(entries []Entry, ids []identified) ([]Item, []error) {
	var errs []error
	type parsed struct {
		file     *model.SourceFile
		row      *Format
		p        format.Parsed
		heads    []Planned
		reported bool // a line of the report names it already
	}
	files := make([]parsed, 0, len(entries))
	manifests := map[string]model.Manifest{}
	var phaseLists []phaseList
	for i, e := range entries {
		sf := NewSourceFile(e.Path, e.Data)
		sf.Size = e.Size()
		row, p, err, heads := ids[i].row, ids[i].p, ids[i].err, ids[i].runHeads()
		ids[i] = identified{} // its runs go on in files; nothing else holds them twice
		sf.Kind = storedKind(row, len(heads), p.Part)
		if sf.Kind == model.KindManifest {
			if err != nil {
				sf.Kind = model.KindOther // reported, and kept beside the runs
				errs = append(errs, err)
				files = append(files, parsed{sf, nil, p, nil, true})
				continue
			}
			manifests[path.Dir(e.Path)] = p.Manifest
		}
		if err != nil {
			errs = append(errs, err)
			if len(heads) == 0 && p.Part == nil {
				continue // refused whole
			}
		}
		for _, r := range p.Runs {
			r.Warnings = append(r.Warnings, p.Warnings...)
		}
		if p.Part != nil && p.Part.Resolve != nil {
			resolvePart(e.Path, p.Part, entries)
		}
		if row != nil && row.Kind == model.KindPhases {
			phaseLists = append(phaseLists, phaseList{file: e.Path, dir: path.Dir(e.Path), entries: p.Phases})
		}
		files = append(files, parsed{sf, row, p, heads, err != nil})
	}

	var items []*Item
	runDirs := map[string]bool{}
	for _, f := range files {
		for i, head := range f.heads {
			it := &Item{Index: i, Result: f.file, Planned: head}
			if f.p.Runs != nil {
				it.Run = f.p.Runs[i]
			}
			items = append(items, it)
			runDirs[path.Dir(f.file.Name)] = true
		}
	}
	items = foldCSVSummaries(items)
	// Companions: per-request records join the summary of the same tool in their folder,
	// by stem when several could match; one without a summary is a run of its own.
	for _, f := range files {
		if f.p.Part == nil {
			continue
		}
		if f.p.Part.All {
			continue // after every run is known, below
		}
		if it := pairPart(items, f.file, f.p.Part); it != nil {
			mergePart(it.Run, f.p.Part)
			it.Parts = append(it.Parts, f.file)
			continue
		}
		run := model.NewRun(f.p.Part.Tool)
		what, their := f.p.Part.What, "its"
		if what == "" {
			what, their = "per-request records", "their"
		}
		run.IdentifiedBy = what + " of " + f.p.Part.Tool + ", without " + their + " summary"
		mergePart(run, f.p.Part)
		if f.p.Part.What == "" {
			run.Warnings = append(run.Warnings, model.Warn(model.WarnRecordsAlone))
		} else {
			run.Warnings = append(run.Warnings, model.Warn(model.WarnNoSummary, what))
		}
		items = append(items, &Item{Run: run, Result: f.file, Planned: headOf(run)})
		runDirs[path.Dir(f.file.Name)] = true
	}
	// Parts for every run of their tool in their folder (inference-perf's config.yaml).
	for _, f := range files {
		if f.p.Part == nil || !f.p.Part.All {
			continue
		}
		taken := false
		for _, it := range items {
			if path.Dir(it.Result.Name) == path.Dir(f.file.Name) && it.Planned.Tool == f.p.Part.Tool {
				f.p.Part.Fill(it.Run)
				it.Parts = append(it.Parts, f.file)
				taken = true
			}
		}
		if !taken {
			errs = append(errs, &position.Error{File: f.file.Name, Offset: -1, Err: &Skip{
				Why: "not stored: " + f.p.Part.What + ", and no run of " + f.p.Part.Tool + " beside it"}})
		}
	}
	// Attachments go to the runs under the nearest folder that has runs below it.
	rowOf := map[*model.SourceFile]*Format{}
	for _, f := range files {
		if f.file.Kind == model.KindResult || f.file.Kind == model.KindCompanion {
			continue
		}
		rowOf[f.file] = f.row
		dir := attachDir(path.Dir(f.file.Name), runDirs)
		climbed := dir != path.Dir(f.file.Name) // from a folder of no run
		if groups := runGroups(dir, runDirs); climbed && len(groups) > 1 && evidenceKind(f.file.Kind) {
			errs = append(errs, &position.Error{File: f.file.Name, Offset: -1, Err: &Skip{Why: fmt.Sprintf(
				"not stored: this %s file lies in a folder of no run, beside the runs of %d folders (%s): which run it belongs to is not known; put it beside its run's result",
				f.file.Kind, len(groups), listed(groups, 3))}})
			continue
		}
		taken := false
		for _, it := range items {
			if within(path.Dir(it.Result.Name), dir) && (f.row == nil || f.row.Applies == nil || f.row.Applies(f.file.Name, it.Result.Name)) {
				it.Attachments = append(it.Attachments, f.file)
				if climbed {
					it.Climbed = append(it.Climbed, f.file)
				}
				taken = true
			}
		}
		if why := unread(f.file.Kind, f.p.Why, taken); why != "" && !f.reported {
			errs = append(errs, &position.Error{File: f.file.Name, Offset: -1, Err: &Skip{Why: why}})
		}
	}
	for dir, m := range manifests {
		if sec, ok := m["phases"].(map[string]any); ok {
			phaseLists = append(phaseLists, phaseList{file: path.Join(dir, "bundle.yaml"), dir: dir, entries: phaseMap(sec)})
		}
	}
	for _, it := range items {
		if it.Run != nil {
			it.Planned = headOf(it.Run) // as its parts left it
		}
		it.Readings = readings(it.Attachments, rowOf)
		it.Planned.Manifest = manifestFor(path.Dir(it.Result.Name), manifests)
		applyManifest(&it.Planned)
	}
	markPhases(items, phaseLists)
	out := make([]Item, 0, len(items))
	for _, it := range items {
		if it.Run != nil {
			it.Planned.apply(it.Run)
		}
		out = append(out, *it)
	}
	return out, errs
}

// unread explains what became of a file that is no result, or "" when it is read as evidence.
// why says what the file is when the parser knew (an AIPerf roll-up).
func unread(kind, why string, taken bool) string {
	if why == "" {
		why = "no result, log, trace or utilisation format recognised"
	}
	switch {
	case kind == model.KindOther && taken:
		return "kept beside the runs, unread: " + why
	case kind == model.KindOther:
		return "not stored: " + why + ", and no run beside it"
	case !taken && kind != model.KindManifest:
		return "not stored: a " + kind + " file with no run beside it"
	}
	return ""
}

// NewSourceFile describes a file. Its content hash is left to the caller, who may compute
// it on another core while this one parses.
func NewSourceFile(name string, data []byte) *model.SourceFile {
	return &model.SourceFile{Name: name, Size: int64(len(data)), Kind: model.KindOther, Data: data}
}

// Hash returns the hex SHA-256 of data, the identity of a stored file.
func Hash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// foldCSVSummaries drops a genai-perf / AIPerf CSV summary when the JSON summary of the same
// run sits beside it (the tools write both); the CSV is kept as a part of the JSON's run.
func foldCSVSummaries(items []*Item) []*Item {
	out := make([]*Item, 0, len(items))
	for _, it := range items {
		if strings.HasSuffix(strings.ToLower(it.Result.Name), ".csv") {
			if twin := summaryTwin(items, it); twin != nil {
				twin.Parts = append(twin.Parts, it.Result)
				continue
			}
		}
		out = append(out, it)
	}
	return out
}

func summaryTwin(items []*Item, csv *Item) *Item {
	for _, it := range items {
		if it != csv && it.Planned.Tool == csv.Planned.Tool && path.Dir(it.Result.Name) == path.Dir(csv.Result.Name) &&
			!strings.HasSuffix(strings.ToLower(it.Result.Name), ".csv") {
			return it
		}
	}
	return nil
}

// resolvePart gives a part the files of the bundle its records point into (Part.Refs, below
// its own folder).
func resolvePart(name string, part *format.Part, entries []Entry) {
	files := map[string][]byte{}
	for _, ref := range part.Refs {
		want := path.Join(path.Dir(name), ref)
		for _, e := range entries {
			if e.Path == want {
				files[ref] = e.Data
				break
			}
		}
	}
	part.Warnings = append(part.Warnings, part.Resolve(files)...)
}

// pairPart finds the run a part completes: the one of its tool in its folder (by stem when
// several are), which has no per-request records yet unless the part brings none.
func pairPart(items []*Item, file *model.SourceFile, part *format.Part) *Item {
	dir := path.Dir(file.Name)
	var same []*Item
	for _, it := range items {
		if path.Dir(it.Result.Name) == dir && it.Planned.Tool == part.Tool && (len(it.Run.Requests) == 0 || len(part.Requests) == 0) {
			same = append(same, it)
		}
	}
	if len(same) == 1 {
		return same[0]
	}
	for _, it := range same {
		if part.Stem != "" && strings.Contains(path.Base(it.Result.Name), part.Stem) {
			return it
		}
	}
	return nil
}

func mergePart(run *model.Run, part *format.Part) {
	if len(part.Requests) > 0 {
		run.Requests = part.Requests
	}
	run.Warnings = append(run.Warnings, part.Warnings...)
	if part.Fill != nil {
		part.Fill(run)
	}
	if part.Warmup > 0 {
		w := &model.Warmup{Requests: part.Warmup, InFile: true, Setting: "records marked as warm-up by the tool (" + part.Tool + ")"}
		if run.ToolWarmup != nil && run.ToolWarmup.Setting != "" {
			w.Setting += "; " + run.ToolWarmup.Setting
		}
		run.ToolWarmup = w
	}
	for k, v := range part.Extra {
		if run.Extra == nil {
			run.Extra = map[string]any{}
		}
		run.Extra[k] = v
	}
}

// attachDir climbs from dir to the nearest folder with runs at or below it.
func attachDir(dir string, runDirs map[string]bool) string {
	for d := dir; ; d = path.Dir(d) {
		for rd := range runDirs {
			if within(rd, d) {
				return d
			}
		}
		if d == "." || d == "/" || path.Dir(d) == d {
			return d
		}
	}
}

// runGroups are the folders directly in dir that hold runs at or below them ("." for runs in
// dir itself), in order. A file that climbed to dir from a folder of no run attaches to dir's
// runs only when they are one group: beside the runs of several (a lab's folder of dated
// attempts, the failed ones holding only their server.log), which run it belongs to is not
// known, and attaching it to every one gave each the failed attempt's log.
func runGroups(dir string, runDirs map[string]bool) []string {
	seen := map[string]bool{}
	for rd := range runDirs {
		if !within(rd, dir) {
			continue
		}
		if rd == dir {
			seen["."] = true
			continue
		}
		rel := rd // within dir: dir is ".", or rd starts with dir + "/"
		if dir != "." {
			rel = rd[len(dir)+1:]
		}
		first, _, _ := strings.Cut(rel, "/")
		seen[first] = true
	}
	out := make([]string, 0, len(seen))
	for g := range seen {
		out = append(out, g)
	}
	sort.Strings(out)
	return out
}

// evidenceKind reports whether a file of kind says something of the run it is attached to (a
// log, trace, utilisation or environment file, server metrics): one a climbing file must not
// lend to runs it may not belong to. Manifests and phase lists keep their own rules; a file of
// no known format (a script, a README) is kept beside the runs, unread, as before.
func evidenceKind(kind string) bool {
	switch kind {
	case model.KindLog, model.KindTrace, model.KindUtilisation, model.KindEnvironment, model.KindServerMetrics:
		return true
	}
	return false
}

// listed is names joined by commas, the first n of them and how many more.
func listed(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}

func within(dir, ancestor string) bool {
	return dir == ancestor || ancestor == "." || strings.HasPrefix(dir, ancestor+"/")
}

// manifestFor merges the manifests from the bundle's top down to dir.
func manifestFor(dir string, manifests map[string]model.Manifest) model.Manifest {
	var chain []string
	for d := dir; ; d = path.Dir(d) {
		if _, ok := manifests[d]; ok {
			chain = append(chain, d)
		}
		if d == "." || d == "/" || path.Dir(d) == d {
			break
		}
	}
	sort.Slice(chain, func(i, j int) bool { return len(chain[i]) < len(chain[j]) })
	var m model.Manifest
	for _, d := range chain {
		m = model.Merge(m, manifests[d])
	}
	return m
}

// applyManifest lets the manifest name the run's arm.
func applyManifest(head *Planned) {
	if l := head.Manifest.String("label"); l != "" {
		head.Label = l
	}
	if r := head.Manifest.String("role"); r != "" {
		head.Role = model.Role(r)
	}
}
