package library

import (
	"errors"
	"fmt"
	"iter"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"benchlens/importers"
	"benchlens/importers/position"
	"benchlens/model"
	"benchlens/store"
)

// LabelBy says what names the arms an import forms: a lab's folder of both arms, or of sixty
// experiment folders, is not one arm.
type LabelBy string

// How an import labels its runs. The default is LabelByManifest.
const (
	// LabelByManifest: the label the files give (bundle.yaml's, or a result's own), else the
	// imported folder's name.
	LabelByManifest LabelBy = "manifest"
	// LabelByBundle: the imported folder's (archive's, lone file's) name, whatever the
	// manifests say.
	LabelByBundle LabelBy = "bundle"
	// LabelByFolder: the folder right under the imported one that holds the run (an
	// experiment folder of several runs); runs lying in the imported folder itself take its name.
	LabelByFolder LabelBy = "folder"
	// LabelByModel: the run's model; where the models of one bundle differ by their precision
	// (Llama-3.1-8B-Instruct and its FP8 build), the precision, FP16 / FP8.
	LabelByModel LabelBy = "model"
)

// LabelBys lists the ways to label, in the order the app offers them.
var LabelBys = []LabelBy{LabelByBundle, LabelByFolder, LabelByModel, LabelByManifest}

// Valid reports whether b is one of LabelBys ("" is the default, LabelByManifest).
func (b LabelBy) Valid() bool { return b == "" || slices.Contains(LabelBys, b) }

// Group is the runs of an import that form one arm under a LabelBy, as the app lists them
// before importing.
type Group struct {
	Key        string     // names the group in Options.Groups
	Label      string     // the label its runs get unless Options.Groups says otherwise
	Role       model.Role // the role its manifest gives, "" when none does
	Bundle     string     // the imported path it was found in
	Folder     string     // the folder of its runs inside the bundle, when they share one
	Runs       int
	Models     []string // the models its runs measured, sorted
	Precisions []string // their precisions (FP16, FP8, AWQ …), sorted
	// Subfolders are the folders right under the bundle its runs lie in, sorted ("" for runs in
	// the bundle itself): more than one, and LabelByFolder would make an arm of each (a lab's
	// GPU and TPU folders under one imported folder).
	Subfolders []string
}

// GroupChoice is the label and role the analyst gave a group before importing it.
type GroupChoice struct {
	Label string
	Role  model.Role // "" keeps the manifest's (else other)
}

// found is what naming a run's arm needs to know of it, read before anything is stored.
type found struct {
	bundle, result   string // the imported path; the result's path inside the bundle
	model, precision string // precision as the names say it (PrecisionIn)
	label, manifest  string // the label the files give (bundle.yaml's, a result's own); the manifest's role
}

func foundOf(bundle string, it importers.Item) found {
	m, label, manifest := it.Arm()
	return found{bundle: bundle, result: it.Result.Name, model: m, precision: model.PrecisionIn(m, it.Result.Name),
		label: label, manifest: manifest.String("role")}
}

// subfolder is the folder right under the bundle holding the result, "" for a result lying in
// the bundle itself (result paths start with the bundle's own name).
func (f found) subfolder() string {
	parts := strings.Split(f.result, "/")
	if len(parts) > 2 {
		return parts[1]
	}
	return ""
}

func (f found) key(by LabelBy) string {
	switch by {
	case LabelByBundle:
		return f.bundle
	case LabelByFolder:
		return f.bundle + "\x00" + f.subfolder()
	case LabelByModel:
		return f.bundle + "\x00" + f.model + "\x00" + f.precision
	default:
		return f.bundle + "\x00" + f.label
	}
}

// labels are the default labels of the groups of one bundle's runs, by group key. The runs are
// a sequence, read twice when by is LabelByModel, so that an import makes each as it is read:
// a slice of them all was 96 bytes a run of a folder of 100,000 results.
func labels(by LabelBy, runs iter.Seq[found]) map[string]string {
	out := map[string]string{}
	for f := range runs {
		name := bundleName(f.bundle)
		switch by {
		case LabelByFolder:
			if s := f.subfolder(); s != "" {
				name = s
			}
		case LabelByManifest, "":
			if f.label != "" {
				name = f.label
			}
		case LabelByModel:
			if f.model != "" {
				name = model.ModelName(f.model)
			}
		}
		out[f.key(by)] = name
	}
	if by == LabelByModel {
		byPrecision(runs, out)
	}
	return out
}

// byPrecision names model groups by their precision when that alone tells them apart (each
// group has one, and no two share it), else adds it to the model's name where two groups of one
// name differ by it.
func byPrecision(runs iter.Seq[found], out map[string]string) {
	precision := map[string]string{}
	for f := range runs {
		precision[f.key(LabelByModel)] = f.precision
	}
	seen := map[string]bool{}
	distinct := len(precision) > 1
	for _, p := range precision {
		if p == "" || seen[p] {
			distinct = false
		}
		seen[p] = true
	}
	names := map[string]int{}
	for _, l := range out {
		names[l]++
	}
	for k, p := range precision {
		switch {
		case distinct:
			out[k] = p
		case p != "" && names[out[k]] > 1:
			out[k] += " " + p
		}
	}
}

// Plan is what an import of some paths would store, read but not stored: the app shows it
// grouped into arms, the analyst names them, and Import (with Options.LabelBy and .Groups)
// stores them so.
type Plan struct {
	runs    []found
	Errors  []error // files that would be refused
	Skipped []error // files that would be left unread
}

// PlanImport reads every path as Import would and says what it holds, storing nothing.
func PlanImport(st *store.Store, paths []string, lim importers.Limits) Plan {
	var p Plan
	if lim == (importers.Limits{}) {
		lim = importers.DefaultLimits
	}
	own := ownFiles(st)
	for _, path := range paths {
		entries, errs := importers.ReadBundle(path, lim, own...)
		p.note(errs...)
		if len(entries) == 0 && len(errs) == 0 {
			p.Errors = append(p.Errors, &position.Error{File: path, Offset: -1, Err: errors.New("no files")})
		}
		if len(entries) == 0 {
			continue
		}
		entries, dup := dropDuplicates(entries)
		p.Errors = append(p.Errors, dup...)
		items, errs := importers.Assemble(entries)
		p.note(errs...)
		bundle := absPath(path)
		for _, it := range items {
			p.runs = append(p.runs, foundOf(bundle, it))
		}
		for _, e := range entries {
			if e.Close != nil {
				e.Close()
			}
		}
	}
	return p
}

func (p *Plan) note(errs ...error) {
	var r Report
	r.note(errs...)
	p.Errors = append(p.Errors, r.Errors...)
	p.Skipped = append(p.Skipped, r.Skipped...)
}

// Runs is how many runs the plan found.
func (p Plan) Runs() int { return len(p.runs) }

// Groups are the arms the plan's runs form when labelled by by, in the order they were found.
func (p Plan) Groups(by LabelBy) []Group {
	var out []Group
	index := map[string]int{}
	bundles := map[string][]found{}
	for _, f := range p.runs {
		bundles[f.bundle] = append(bundles[f.bundle], f)
	}
	names := map[string]map[string]string{}
	for b, runs := range bundles {
		names[b] = labels(by, slices.Values(runs))
	}
	for _, f := range p.runs {
		k := f.key(by)
		i, ok := index[k]
		if !ok {
			i = len(out)
			index[k] = i
			folder := path.Dir(f.result)
			out = append(out, Group{Key: k, Label: names[f.bundle][k], Role: model.Role(f.manifest), Bundle: f.bundle, Folder: folder})
		}
		g := &out[i]
		g.Runs++
		if g.Folder != "" && !within(f.result, g.Folder) {
			g.Folder = commonFolder(g.Folder, path.Dir(f.result))
		}
		if f.model != "" && !slices.Contains(g.Models, f.model) {
			g.Models = append(g.Models, f.model)
			slices.Sort(g.Models)
		}
		if f.precision != "" && !slices.Contains(g.Precisions, f.precision) {
			g.Precisions = append(g.Precisions, f.precision)
			slices.Sort(g.Precisions)
		}
		if sub := f.subfolder(); !slices.Contains(g.Subfolders, sub) {
			g.Subfolders = append(g.Subfolders, sub)
			slices.Sort(g.Subfolders)
		}
		if g.Role != model.Role(f.manifest) {
			g.Role = "" // the manifests disagree: none is the group's
		}
	}
	return out
}

func within(name, folder string) bool { return strings.HasPrefix(name, folder+"/") }

// commonFolder is the longest folder holding both a and b ("" when they share none).
func commonFolder(a, b string) string {
	for a != "." && a != "/" && a != "" {
		if b == a || within(b, a) {
			return a
		}
		a = path.Dir(a)
	}
	return ""
}

// armOf sets the label and role of a run about to be stored: --label and --role first, then
// the analyst's choice for its group, then what LabelBy names (manifest role, else other).
func armOf(run *model.Run, f found, names map[string]string, opt Options) {
	key := f.key(opt.LabelBy)
	choice := opt.Groups[key]
	switch {
	case opt.Label != "":
		run.Label = opt.Label
	case strings.TrimSpace(choice.Label) != "":
		run.Label = strings.TrimSpace(choice.Label)
	case names[key] != "":
		run.Label = names[key]
	}
	switch {
	case opt.Role != "":
		run.Role = opt.Role
	case choice.Role != "":
		run.Role = choice.Role
	}
	if run.Role == "" {
		run.Role = model.RoleOther
	}
}

// precisionOf is the run's precision and where it was read: the server's quantization or dtype
// setting first (what ran), then the model's and the result file's names.
func precisionOf(it importers.Item, evidence map[string]*model.Evidence) (string, string) {
	for _, f := range it.Attachments {
		ev := evidence[f.Name]
		if ev == nil || ev.Log == nil {
			continue
		}
		q := strings.Trim(ev.Log.EngineConfig["quantization"], `'"`)
		if q == "" {
			q = strings.Trim(ev.Log.Args["quantization"], `'"`)
		}
		if p := model.PrecisionIn(q); p != "" {
			return p, "server log (quantization)"
		}
		if p := model.PrecisionIn(ev.Log.Dtype); p != "" {
			return p, "server log (dtype)"
		}
	}
	if p := model.PrecisionIn(it.Run.Model); p != "" {
		return p, "model name"
	}
	if p := model.PrecisionIn(it.Result.Name); p != "" {
		return p, "file name"
	}
	return "", ""
}

func absPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// checkLabelBy refuses a LabelBy the import does not know.
func checkLabelBy(opt Options) error {
	if !opt.LabelBy.Valid() {
		return fmt.Errorf("%w: --label-by %q: expected one of bundle, folder, model, manifest", ErrUsage, opt.LabelBy)
	}
	return nil
}
