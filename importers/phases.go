package importers

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"regexp"
	"slices"
	"strings"

	"benchlens/importers/format"
	"benchlens/model"
)

// Warm-up runs saved beside measured runs (METHOD.md rule 12). Labs keep the run they threw
// away next to the one they measured (warmup_c32.json, 50 prompts, beside result_c32.json,
// 400): it is the arm's warm-up, not a repeat. A run is a warm-up run when, first to last
// (the first that speaks wins):
//
//  1. the nearest bundle.yaml says `phase: warmup` (or `phase: measured`, to overrule the rest);
//  2. a phase list beside or above it names it: bundle.yaml's
//     `phases: {warmup: [warmup_c32.json], measured: [result_c32.json]}`, or a file of records
//     naming a file and its phase, as harnesses write them: JSON lines or a JSON array
//     (windows.jsonl, phases.json: {"file": "warmup_c32.json", "phase": "warmup"}, also
//     "path"/"result"/"output", "kind"/"stage"/"window", or "warmup": true), a JSON object of the
//     bundle.yaml form, or CSV with such a header;
//  3. its file name, or its folder's name, says warmup / warm_up / warm-up, and a run not so
//     named sits beside it (in its folder or the folder above).
//
// A phase list names a file by its path below the list's folder, by a tail of it, or by its
// base name (harnesses write the lab machine's absolute paths); a folder name marks every run
// under that folder (an AIPerf artifact dir).

// warmupName finds warmup, warm_up or warm-up as a word of a file or folder name.
var warmupName = regexp.MustCompile(`(?i)(^|[^a-z])warm[-_ ]?up([^a-z]|$)`)

// phaseOf reads a phase list's word for a phase: warmup, measured, or "" for neither.
func phaseOf(word string) string {
	w := strings.ToLower(strings.TrimSpace(word))
	switch {
	case w == "":
		return ""
	case strings.Contains(w, "warm") || w == "discard" || w == "discarded" || w == "prime":
		return model.PhaseWarmup
	}
	for _, m := range []string{"measure", "profil", "bench", "main", "steady", "record", "timed"} {
		if strings.HasPrefix(w, m) {
			return model.PhaseMeasured
		}
	}
	return ""
}

// phaseList is a phase list of the bundle, with the folder its names are relative to.
type phaseList struct {
	file, dir string
	entries   []format.Phase
}

// Keys a harness's phase records use.
var (
	phaseFileKeys  = []string{"file", "path", "result", "result_file", "result_path", "output", "output_file", "output_path", "filename", "file_name", "artifact", "artifact_dir", "dir"}
	phasePhaseKeys = []string{"phase", "kind", "stage", "window", "role", "type", "purpose"}
	phaseFlagKeys  = map[string]string{"warmup": model.PhaseWarmup, "is_warmup": model.PhaseWarmup, "warm_up": model.PhaseWarmup,
		"discard": model.PhaseWarmup, "discarded": model.PhaseWarmup, "measured": model.PhaseMeasured, "is_measured": model.PhaseMeasured}
)

// isPhaseList is the registry's sniff: JSON whose first record has a phase key or flag, or
// CSV whose header names a file column and a phase column. No result is asked about here:
// the result formats come first and hand a JSON holding no run on.
func isPhaseList(f *format.File) bool {
	lead := f.Lead()
	if len(lead) == 0 || len(f.Data) > maxPhaseList {
		return false
	}
	head := strings.ToLower(string(lead[:min(len(lead), 4096)]))
	if lead[0] == '{' || lead[0] == '[' {
		for _, k := range append(phasePhaseKeys, "warmup", "is_warmup", "warm_up", "discard", "measured") {
			if strings.Contains(head, `"`+k+`"`) {
				return true
			}
		}
		return false
	}
	first, _, _ := strings.Cut(head, "\n")
	cols := strings.Split(strings.TrimSpace(first), ",")
	return slices.ContainsFunc(cols, func(c string) bool { return slices.Contains(phaseFileKeys, strings.TrimSpace(c)) }) &&
		slices.ContainsFunc(cols, func(c string) bool { return slices.Contains(phasePhaseKeys, strings.TrimSpace(c)) })
}

// maxPhaseList bounds a phase list: a few lines per run, never megabytes.
const maxPhaseList = 4 << 20

// readPhases is the registry's parse; a file that names no file with a phase is another's.
func readPhases(f *format.File) (format.Parsed, error) {
	pl, ok := readPhaseList(f.Name, f.Data)
	if !ok {
		return format.Parsed{}, format.ErrUnrecognized
	}
	return format.Parsed{Phases: pl.entries}, nil
}

// readPhaseList reads a file that lists result files with their phase; ok is false when the
// file is no such list.
func readPhaseList(name string, data []byte) (phaseList, bool) {
	pl := phaseList{file: name, dir: path.Dir(name)}
	trimmed := bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	if len(trimmed) == 0 || len(trimmed) > maxPhaseList {
		return pl, false
	}
	if trimmed[0] == '{' || trimmed[0] == '[' {
		dec := json.NewDecoder(bytes.NewReader(trimmed))
		n := 0
		for {
			var v any
			if err := dec.Decode(&v); err == io.EOF {
				break
			} else if err != nil {
				return phaseList{file: name, dir: pl.dir}, false // not JSON all through: no list
			}
			switch x := v.(type) {
			case []any:
				for _, r := range x {
					n++
					pl.add(jsonRecord(r), n)
				}
			case map[string]any:
				n++
				if rec := jsonRecord(x); rec.File != "" {
					pl.add(rec, n)
				} else {
					pl.entries = append(pl.entries, phaseMap(x)...)
				}
			}
		}
	} else {
		rows, err := csv.NewReader(bytes.NewReader(trimmed)).ReadAll()
		if err != nil || len(rows) < 2 {
			return pl, false
		}
		head := rows[0]
		for i, row := range rows[1:] {
			rec := map[string]any{}
			for j, h := range head {
				if j < len(row) {
					rec[strings.ToLower(strings.TrimSpace(h))] = row[j]
				}
			}
			pl.add(jsonRecord(rec), i+2)
		}
	}
	return pl, len(pl.entries) > 0
}

func (pl *phaseList) add(e format.Phase, record int) {
	if e.File != "" && e.Phase != "" {
		e.Record = record
		pl.entries = append(pl.entries, e)
	}
}

// jsonRecord reads one record: its file and phase, empty when it has either not.
func jsonRecord(v any) format.Phase {
	rec, ok := v.(map[string]any)
	if !ok {
		return format.Phase{}
	}
	var e format.Phase
	for _, k := range phaseFileKeys {
		if s, ok := rec[k].(string); ok && s != "" {
			e.File = s
			break
		}
	}
	for _, k := range phasePhaseKeys {
		if s, ok := rec[k].(string); ok {
			if e.Phase = phaseOf(s); e.Phase != "" {
				break
			}
		}
	}
	for k, phase := range phaseFlagKeys {
		if e.Phase == "" && (rec[k] == true || rec[k] == "true" || rec[k] == "True") {
			e.Phase = phase
		}
	}
	return e
}

// phaseMap reads the bundle.yaml form: phase words to a file name or a list of them.
func phaseMap(m map[string]any) []format.Phase {
	var out []format.Phase
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		phase := phaseOf(k)
		if phase == "" {
			continue
		}
		var names []any
		switch v := m[k].(type) {
		case string:
			names = []any{v}
		case []any:
			names = v
		}
		for _, n := range names {
			if s, ok := n.(string); ok && s != "" {
				out = append(out, format.Phase{File: s, Phase: phase})
			}
		}
	}
	return out
}

// checkPhases checks a manifest's `phase` and `phases` keys.
func checkPhases(m map[string]any) error {
	if v, ok := m["phase"]; ok {
		if s, isStr := v.(string); !isStr || phaseOf(s) == "" {
			return fmt.Errorf("phase %v: expected warmup or measured", v)
		}
	}
	if v, ok := m["phases"]; ok {
		sec, isMap := v.(map[string]any)
		if !isMap {
			return fmt.Errorf("phases: expected {warmup: [files], measured: [files]}")
		}
		for k, names := range sec {
			if phaseOf(k) == "" {
				return fmt.Errorf("phases.%s: expected warmup or measured", k)
			}
			switch x := names.(type) {
			case string:
			case []any:
				for _, n := range x {
					if _, ok := n.(string); !ok {
						return fmt.Errorf("phases.%s: expected file names", k)
					}
				}
			default:
				return fmt.Errorf("phases.%s: expected a file name or a list of them", k)
			}
		}
	}
	return nil
}

// match is how many trailing path components the entry's name shares with the result at rel
// (its path below the list's folder), or with a folder on its way there: 0 when none.
func phaseMatch(e format.Phase, rel string) int {
	want := strings.Split(strings.Trim(path.Clean(strings.ReplaceAll(e.File, `\`, "/")), "/"), "/")
	have := strings.Split(rel, "/")
	best := 0
	for n := len(have); n >= 1; n-- {
		k := 0
		for k < n && k < len(want) && have[n-1-k] == want[len(want)-1-k] {
			k++
		}
		best = max(best, k)
	}
	return best
}

// markPhases sets each run's phase (see the top of this file).
func markPhases(items []*Item, lists []phaseList) {
	listed := phasesListed(items, lists)
	for _, it := range items {
		run := &it.Planned
		switch phaseOf(run.Manifest.String("phase")) {
		case model.PhaseWarmup:
			run.Phase, run.PhaseWhy = model.PhaseWarmup, "bundle.yaml: phase: "+run.Manifest.String("phase")
			continue
		case model.PhaseMeasured:
			continue
		}
		if why, ok := listed[it]; ok {
			if why != "" {
				run.Phase, run.PhaseWhy = model.PhaseWarmup, why
			}
			continue
		}
		if p := warmupNamed(it.Result.Name); p != "" && besideMeasured(it, items) {
			run.Phase, run.PhaseWhy = model.PhaseWarmup, "its name says warm-up: "+p
		}
	}
}

// warmupNamed is the name that says a result is a warm-up run: its file's, or its folder's
// (an AIPerf artifact dir) unless that folder is the bundle itself; "" when neither does.
func warmupNamed(name string) string {
	parts := strings.Split(name, "/")
	names := parts[len(parts)-1:]
	if len(parts) > 2 {
		names = append(names, parts[len(parts)-2])
	}
	for _, p := range names {
		if warmupName.MatchString(p) {
			return p
		}
	}
	return ""
}

// besideMeasured reports whether a run named warm-up sits beside a run that is not: in its
// folder or its folder's parent. A whole study whose folder says warmup is no warm-up run.
func besideMeasured(it *Item, items []*Item) bool {
	dir := path.Dir(it.Result.Name)
	for _, o := range items {
		if o != it && warmupNamed(o.Result.Name) == "" && within(path.Dir(o.Result.Name), path.Dir(dir)) {
			return true
		}
	}
	return false
}

// phasesListed maps each run a phase list names to why it is a warm-up run ("" when the list
// says it was measured). An entry names the runs below its list's folder whose paths share
// the most trailing components with it; the nearest list naming a run wins.
func phasesListed(items []*Item, lists []phaseList) map[*Item]string {
	lists = slices.Clone(lists)
	slices.SortStableFunc(lists, func(a, b phaseList) int { return len(b.dir) - len(a.dir) })
	out := map[*Item]string{}
	for _, pl := range lists {
		claimed := map[*Item]bool{}
		for _, e := range pl.entries {
			best := 0
			var named []*Item
			for _, it := range items {
				if !within(path.Dir(it.Result.Name), pl.dir) {
					continue
				}
				k := phaseMatch(e, strings.TrimPrefix(it.Result.Name, pl.dir+"/"))
				switch {
				case k > best:
					best, named = k, []*Item{it}
				case k == best && k > 0:
					named = append(named, it)
				}
			}
			for _, it := range named {
				if _, done := out[it]; done && !claimed[it] {
					continue // a nearer list named it
				}
				claimed[it] = true
				why := ""
				if e.Phase == model.PhaseWarmup {
					why = fmt.Sprintf("%s names it warm-up (%q)", pl.file, e.File)
					if e.Record > 0 {
						why = fmt.Sprintf("%s, record %d, names it warm-up (%q)", pl.file, e.Record, e.File)
					}
				}
				out[it] = why
			}
		}
	}
	return out
}
