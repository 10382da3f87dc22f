package library

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"benchlens/importers"
	"benchlens/importers/position"
	"benchlens/internal/textsafe"
	"benchlens/model"
	"benchlens/store"
)

// A re-import never changes a stored run, so a bundle.yaml put beside runs already stored
// waits until the analyst asks for it (import --reapply-manifests, the import report's
// button): ReapplyManifests reads the bundles again and gives each stored run the manifest,
// label, role and phase an import would give it now, saying field by field what changed.

// Reapplied says what ReapplyManifests did.
type Reapplied struct {
	// Lines are one per run changed ("run 12: label "fp16" → "FP8"; change.what (none) →
	// "FP8 weights""), or one per bundle whose manifests change none of its stored runs.
	Lines   []string
	Changed []int64 // the runs changed
	Errors  []error // a bundle unreadable, a manifest refused, a run not updated
}

// ReapplyManifests applies the manifests of the bundles at paths (none: every bundle the
// library's runs were imported from) to the runs of them already stored. Runs not stored are
// left alone (import them); nothing else of a run changes.
func ReapplyManifests(st *store.Store, paths []string, opt Options) Reapplied {
	var rep Reapplied
	lim := opt.Limits
	if lim == (importers.Limits{}) {
		lim = importers.DefaultLimits
	}
	if err := st.Writable(); err != nil {
		rep.Errors = append(rep.Errors, err)
		return rep
	}
	implicit := len(paths) == 0
	if implicit {
		var err error
		if paths, err = storedBundles(st); err != nil {
			rep.Errors = append(rep.Errors, err)
			return rep
		}
		if len(paths) == 0 {
			rep.Lines = append(rep.Lines, "no runs in the library: no manifests to apply")
			return rep
		}
	}
	if err := rekey(st); err != nil {
		rep.Errors = append(rep.Errors, err)
		return rep
	}
	own := ownFiles(st)
	for _, p := range paths {
		if stopped(opt.Stop) {
			rep.Errors = append(rep.Errors, ErrInterrupted)
			break
		}
		if _, err := os.Stat(p); err != nil && implicit {
			rep.Lines = append(rep.Lines, textsafe.Quote(p)+": no longer there, not read")
			continue
		} else if err != nil {
			rep.Errors = append(rep.Errors, &position.Error{File: p, Offset: -1, Err: fmt.Errorf("not read: %w", errors.Unwrap(err))})
			continue
		}
		entries, errs := importers.ReadBundle(p, lim, own...)
		rep.noteRefusals(errs)
		reapplyBundle(st, absPath(p), entries, &rep)
		for _, e := range entries {
			if e.Close != nil {
				e.Close()
			}
		}
	}
	return rep
}

// noteRefusals keeps the importers' errors that are refusals, not files left unread on purpose.
func (r *Reapplied) noteRefusals(errs []error) {
	for _, err := range errs {
		if !importers.IsSkip(err) {
			r.Errors = append(r.Errors, err)
		}
	}
}

// storedBundles are the paths the library's runs were imported from, each once, in order.
func storedBundles(st *store.Store) ([]string, error) {
	runs, err := st.Runs()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, r := range runs {
		// A relative bundle is one embedded in the binary (the samples, "demo/…"): no files.
		if filepath.IsAbs(r.Bundle) && !slices.Contains(out, r.Bundle) {
			out = append(out, r.Bundle)
		}
	}
	return out, nil
}

func reapplyBundle(st *store.Store, bundle string, entries []importers.Entry, rep *Reapplied) {
	entries, dupErrs := dropDuplicates(entries)
	rep.Errors = append(rep.Errors, dupErrs...)
	sha := make(map[string]string, len(entries))
	for _, e := range entries {
		sha[e.Path] = importers.Hash(e.Data)
	}
	items, errs := importers.Assemble(entries)
	rep.noteRefusals(errs)
	stored, changed := 0, 0
	for _, it := range items {
		parts := make([]string, len(it.Parts))
		for i, f := range it.Parts {
			parts[i] = sha[f.Name]
		}
		id, err := st.StoredRun(Fingerprint(it.Run, sha[it.Result.Name], it.Index), sha[it.Result.Name], it.Index, parts)
		if err != nil {
			rep.Errors = append(rep.Errors, fmt.Errorf("%s: %w", it.Result.Name, err))
			continue
		}
		if id == 0 {
			continue // not stored: an import stores it, with its manifest
		}
		stored++
		old, err := st.RunHeader(id)
		if err != nil {
			rep.Errors = append(rep.Errors, fmt.Errorf("%s: run %d: %w", it.Result.Name, id, err))
			continue
		}
		point := model.PointOf(it.Run)
		u := store.ManifestUpdate{Label: it.Run.Manifest.String("label"), Role: model.Role(it.Run.Manifest.String("role")),
			Phase: it.Run.Phase, PhaseWhy: it.Run.PhaseWhy, Manifest: it.Run.Manifest, Point: &point}
		diffs := manifestDiffs(old, u)
		if len(diffs) == 0 {
			continue
		}
		for _, f := range it.Attachments {
			if f.Kind == model.KindManifest {
				f.SHA256 = sha[f.Name]
				u.Files = append(u.Files, store.Attached{File: f, Role: model.FileAttachment})
			}
		}
		if err := st.ApplyManifest(id, u); err != nil {
			rep.Errors = append(rep.Errors, fmt.Errorf("%s: run %d: manifest not applied: %w", it.Result.Name, id, err))
			continue
		}
		changed++
		rep.Changed = append(rep.Changed, id)
		rep.Lines = append(rep.Lines, fmt.Sprintf("run %d: %s", id, strings.Join(diffs, "; ")))
	}
	switch {
	case stored == 0:
		rep.Lines = append(rep.Lines, textsafe.Quote(bundle)+": none of its runs is in the library: import it")
	case changed == 0:
		rep.Lines = append(rep.Lines, fmt.Sprintf("%s: nothing changed: its manifests are applied to its %s already",
			textsafe.Quote(bundle), plural(stored, "stored run")))
	}
}

// plural is "1 stored run", "3 stored runs".
func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %ss", n, one)
}

// manifestDiffs says what applying u changes in run: its label, role and phase, then each
// key of the manifest (other than label and role) from what to what.
func manifestDiffs(run *model.Run, u store.ManifestUpdate) []string {
	var out []string
	if u.Label != "" && store.NormLabel(u.Label) != run.Label {
		out = append(out, fmt.Sprintf("label %s → %s", quoted(run.Label), quoted(u.Label)))
	}
	if u.Role != "" && u.Role != run.Role {
		out = append(out, fmt.Sprintf("role %s → %s", run.Role, u.Role))
	}
	if u.Phase != run.Phase {
		why := ""
		if u.PhaseWhy != "" {
			why = " (" + u.PhaseWhy + ")"
		}
		out = append(out, fmt.Sprintf("phase %s → %s%s", phaseName(run.Phase), phaseName(u.Phase), why))
	}
	was, now := flatManifest(run.Manifest), flatManifest(u.Manifest)
	keys := make([]string, 0, len(was)+len(now))
	for k := range was {
		keys = append(keys, k)
	}
	for k := range now {
		if _, ok := was[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k == "label" || k == "role" || was[k] == now[k] {
			continue
		}
		out = append(out, fmt.Sprintf("%s %s → %s", k, orNone(was[k]), orNone(now[k])))
	}
	return out
}

func phaseName(p string) string {
	if p == "" {
		return model.PhaseMeasured
	}
	return p
}

func quoted(s string) string { return fmt.Sprintf("%q", s) }

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// flatManifest is a manifest's leaves by dotted key (change.what), each as its text (quoted
// when a string, JSON when a list).
func flatManifest(m model.Manifest) map[string]string {
	out := map[string]string{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				walk(strings.TrimPrefix(prefix+"."+k, "."), c)
			}
		case model.Manifest:
			walk(prefix, map[string]any(x))
		case string:
			out[prefix] = quoted(x)
		default:
			b, _ := json.Marshal(x)
			out[prefix] = string(b)
		}
	}
	walk("", m)
	return out
}
