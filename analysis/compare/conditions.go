package compare

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"benchlens/model"
)

// conditionField is a field of the record: where the manifest keeps it and what the files
// themselves say about it.
type conditionField struct {
	section, key string // record section (stack_fingerprint, hardware_sku, node, workload) and key
	load         bool   // a difference is load drift, not environment
	observed     func(rd RunData) string
	// stated is what the run's environment files state of the field (its Fingerprint), with
	// the file and line: read where observed finds nothing.
	stated func(model.Fingerprint) model.Fact
}

var conditionFields = []conditionField{
	{"stack_fingerprint", "base_stack_version", false, nil, model.Fingerprint.Stack},
	{"stack_fingerprint", "driver_version", false, nil, statedFact(model.FactDriver)},
	{"stack_fingerprint", "engine_version", false, engineVersion, model.Fingerprint.Engine},
	{"stack_fingerprint", "transformers_version", false, nil, statedFact(model.FactTransformers)},
	{"hardware_sku", "", false, nil, model.Fingerprint.Hardware},
	{"node", "machine", false, nil, nil},
	{"node", "node", false, nil, nil},
	{"node", "numa", false, nil, statedFact(model.FactNUMA)},
	{"node", "card_slot", false, nil, statedFact(model.FactCardSlot)},
	{"node", "cpu_model", false, nil, statedFact(model.FactCPU)},
	{"node", "numa_nodes", false, nil, statedFact(model.FactNUMANodes)},
	{"workload", "model_name", true, func(rd RunData) string { return rd.Run.Model }, nil},
	{"workload", "dataset", true, client(func(c model.Client) (string, string) { return c.Dataset, "dataset" }), nil},
	{"workload", "input_len", true, client(func(c model.Client) (string, string) { return num(c.InputLen), "input_len" }), nil},
	{"workload", "output_len", true, client(func(c model.Client) (string, string) { return num(c.OutputLen), "output_len" }), nil},
	{"workload", "range_ratio", true, func(rd RunData) string { return extraString(rd.Run, "random_range_ratio") }, nil},
	{"workload", "seed", true, client(func(c model.Client) (string, string) { return c.Seed, "seed" }), nil},
	{"workload", "num_prompts", true, numPrompts, nil},
	{"workload", "max_num_seqs", true, maxNumSeqs, nil},
	{"workload", "max_concurrency", true, func(rd RunData) string { return num(rd.Run.MaxConcurrency) }, nil},
	{"workload", "request_rate", true, func(rd RunData) string { return num(rd.Run.RequestRate) }, nil},
}

// client reads a field from what the run's client was told (model.ClientOf), from the
// run's files only: what bundle.yaml says is the field's declared value.
func client(get func(model.Client) (value, field string)) func(RunData) string {
	return func(rd RunData) string {
		c := model.ClientOf(rd.Run)
		v, field := get(c)
		if c.From[field] == "bundle.yaml" {
			return ""
		}
		return v
	}
}

// numPrompts is the request count the client was told to send: a time-bound run's count is
// an outcome (AIPerf --benchmark-duration), and AIPerf's and genai-perf's counts are what
// was measured unless their config fixed one.
func numPrompts(rd RunData) string {
	c := model.ClientOf(rd.Run)
	switch {
	case c.Requests.Known() && c.From["requests"] != "bundle.yaml":
		return num(c.Requests)
	case c.DurationS.Known(), rd.Run.Tool == "aiperf", rd.Run.Tool == "genai-perf":
		return ""
	}
	return num(rd.Run.NumPrompts)
}

func num(n model.Num) string {
	if !n.Known() {
		return ""
	}
	if n.F() > 1e300 {
		return "inf"
	}
	return strconv.FormatFloat(n.F(), 'g', -1, 64)
}

func extraString(r *model.Run, key string) string {
	switch v := r.Extra[key].(type) {
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case string:
		return v
	}
	return ""
}

// engineVersion is the engine the server log names; a vllm-ascend log that does not print
// its plugin's version takes it from the environment dump.
func engineVersion(rd RunData) string {
	for _, l := range rd.Logs {
		if l.Version == "" {
			continue
		}
		if asc, ok := rd.Fingerprint.Fact(model.FactVLLMAscend); ok && l.Engine == "vllm-ascend" {
			return strings.TrimSpace("vLLM "+l.Version) + " + vllm-ascend " + asc.Value
		}
		return l.EngineVersion()
	}
	return ""
}

func maxNumSeqs(rd RunData) string {
	for _, l := range rd.Logs {
		for _, src := range []map[string]string{l.Args, l.EngineConfig} {
			if v := src["max_num_seqs"]; v != "" {
				return v
			}
			if v := src["max_running_requests"]; v != "" && v != "None" {
				return v
			}
		}
	}
	return ""
}

// reading is what one run says of a field: the manifest's value, and the files' own when they
// say one, with where they say it.
type reading struct {
	declared, observed string
	source             string // the file and line the observed value comes from; "" for a log or result
}

func (f conditionField) value(rd RunData) reading {
	var r reading
	if f.key == "" {
		r.declared = rd.Run.Manifest.String(f.section)
	} else {
		r.declared = rd.Run.Manifest.String(f.section, f.key)
	}
	if f.observed != nil {
		r.observed = f.observed(rd)
	}
	if r.observed == "" && f.stated != nil {
		st := f.stated(rd.Fingerprint)
		r.observed, r.source = st.Value, st.Source()
	}
	return r
}

func (f conditionField) name() string {
	if f.key == "" {
		return f.section
	}
	return f.key
}

// armSide is an arm's value of a field: known when every run gives the same value. The note
// says when runs disagree, or when a manifest and a file disagree (the file's value is used).
type armSide struct {
	value    string
	mixed    bool
	note     string
	source   string // where the value comes from: a file and line, "bundle.yaml", or "" (a log, the result)
	declared string // the manifest's value, when the files state another (or none)
	fromFile bool   // the value is what the files say, not the manifest
}

func (f conditionField) armValue(a Arm) armSide {
	var side armSide
	seen := map[string][]int64{} // value → the runs that give it
	var notes []string
	unknown := false
	for _, rd := range a.Runs {
		r := f.value(rd)
		v, src := r.observed, r.source
		if v == "" {
			v, src = r.declared, "bundle.yaml"
		}
		if r.declared != "" && r.observed != "" && !consistent(f.name(), r.declared, r.observed) {
			notes = append(notes, fmt.Sprintf("run %d: bundle.yaml says %q, its files say %q", rd.Run.ID, r.declared, sourced(r.observed, r.source)))
		}
		if f.stated != nil {
			for _, d := range rd.Fingerprint.FilesDisagree(rd.Logs) { // two of the run's own files
				if strings.HasPrefix(d, f.name()+": ") {
					notes = append(notes, fmt.Sprintf("run %d: its files disagree: %s", rd.Run.ID, strings.TrimPrefix(d, f.name()+": ")))
				}
			}
		}
		if v == "" {
			unknown = true
			continue
		}
		if len(seen) == 0 {
			side.source, side.declared, side.fromFile = src, r.declared, r.observed != ""
		}
		seen[v] = append(seen[v], rd.Run.ID)
	}
	if len(seen) > 1 {
		// Runs of one arm that disagree: each value names its runs, so the drift inside the
		// arm can be traced (rule 12); a sweep's load values stay plain.
		vals := make([]string, 0, len(seen))
		for v := range seen {
			vals = append(vals, v)
		}
		slices.SortFunc(vals, byValue)
		for i, v := range vals {
			if f.key != "max_concurrency" && f.key != "request_rate" { // a sweep's axis needs no names
				vals[i] = fmt.Sprintf("%s (%s)", v, runsText(seen[v]))
			}
		}
		side.value, side.mixed, side.note = strings.Join(vals, " | "), true, strings.Join(append(notes, "runs of this arm differ"), "; ")
		return side
	}
	side.note = strings.Join(notes, "; ")
	if unknown || len(seen) == 0 {
		return armSide{note: side.note}
	}
	for v := range seen {
		side.value = v
	}
	return side
}

// agree reports whether two arms' values of a field are the same condition: equal values of
// the same kind, or, when one arm's value is the files' and the other's only the manifest's,
// the manifest's text consistent with what the files state.
func (f conditionField) agree(b, c armSide) bool {
	switch {
	case sameValue(b.value, c.value):
		return true
	case b.fromFile && !c.fromFile:
		return consistent(f.name(), c.value, b.value)
	case c.fromFile && !b.fromFile:
		return consistent(f.name(), b.value, c.value)
	}
	return false
}

// runsText names runs: "run 3", "runs 3,4".
func runsText(ids []int64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(id, 10)
	}
	if len(ids) == 1 {
		return "run " + parts[0]
	}
	return "runs " + strings.Join(parts, ",")
}

// sameValue compares values as numbers when both are numbers ("64" and "64.0").
func sameValue(a, b string) bool {
	if a == b {
		return true
	}
	fa, errA := strconv.ParseFloat(a, 64)
	fb, errB := strconv.ParseFloat(b, 64)
	return errA == nil && errB == nil && fa == fb
}

// conditions applies rule 1 and fills the record's condition sections.
func conditions(rec *Record, base, cand Arm, set Settings) []Cause {
	rec.StackFingerprint, rec.Node, rec.Workload = map[string]Field{}, map[string]Field{}, map[string]Field{}
	change := declaredChange(base, cand)
	if len(change.Fields) > 0 || change.Path != "" || cand.Declared != nil { // the structured form; free text stays in the manifest
		rec.Change = &change
	}
	env := engineConfig(rec, base, cand, change)
	var load, unverified []string
	for _, f := range conditionFields {
		bs, cs := f.armValue(base), f.armValue(cand)
		bv, cv, bNote, cNote := bs.value, cs.value, bs.note, cs.note
		if f.stated != nil && bv == "" && cv == "" {
			continue // a field only environment files state, stated by none: not a row
		}
		fld := Field{Baseline: bv, Candidate: cv, Required: slices.Contains(set.RequiredFields, f.name())}
		if bs.source != "" || cs.source != "" {
			fld.Source = &ArmValues{Baseline: bs.source, Candidate: cs.source}
		}
		switch {
		case bs.mixed || cs.mixed || (bv != "" && cv != "" && !f.agree(bs, cs)):
			fld.State = model.ConditionDiffers
		case bv == "" || cv == "":
			fld.State = model.ConditionUnknown
		default:
			fld.State = model.ConditionSame
		}
		var notes []string
		if bNote != "" {
			notes = append(notes, "baseline: "+bNote)
		}
		if cNote != "" {
			notes = append(notes, "candidate: "+cNote)
		}
		if f.key == "output_len" && fld.State == model.ConditionUnknown && outputFree(base) && outputFree(cand) {
			fld.Required = false
			notes = append(notes, "an outcome: neither client fixed the output length (see output_length)")
		}
		fld.Note = strings.Join(notes, "; ")
		fld.Declared = fld.State == model.ConditionDiffers && change.Declares(f.section, f.key)
		if f.key == "model_name" && fld.State == model.ConditionDiffers && !fld.Declared {
			if why := quantisedCheckpoint(rec, change, cv); why != "" {
				fld.Declared, fld.Note = true, strings.TrimPrefix(fld.Note+"; "+why, "; ")
			}
		}
		switch f.section {
		case "stack_fingerprint":
			rec.StackFingerprint[f.key] = fld
		case "hardware_sku":
			rec.HardwareSKU = fld
		case "node":
			rec.Node[f.key] = fld
		case "workload":
			rec.Workload[f.key] = fld
		}
		label := f.name()
		switch {
		case fld.Declared:
			// the change itself: reported as such, not as drift
		case fld.State == model.ConditionDiffers && f.load:
			load = append(load, fmt.Sprintf("%s (%s vs %s)", label, orUnknown(bv), orUnknown(cv)))
		case fld.State == model.ConditionDiffers:
			env = append(env, fmt.Sprintf("%s (%s vs %s)", label, sourcedFile(bv, bs.source), sourcedFile(cv, cs.source)))
		case fld.State == model.ConditionUnknown && fld.Required:
			unverified = append(unverified, label)
		}
	}
	if rec.Change == nil && slices.ContainsFunc(rec.Conditions(), func(c Condition) bool { return c.Declared }) {
		rec.Change = &change // the free-text change covered a difference: say which change
	}
	if note := requestSets(rec, base, cand); note != "" {
		load = append(load, note)
	}
	var causes []Cause
	if len(env) > 0 {
		causes = append(causes, Cause{model.EnvironmentDiffers, "environment differs: " + strings.Join(env, ", ")})
	}
	if len(load) > 0 {
		causes = append(causes, Cause{model.LoadDrift, "load differs: " + strings.Join(load, ", ")})
	}
	if len(unverified) > 0 {
		causes = append(causes, Cause{model.ConditionsUnverified, "not recorded on both sides: " + strings.Join(unverified, ", ") +
			" (record them in bundle.yaml)"})
	}
	return causes
}

// declaredChange is the change declared with the comparison, else the one the candidate's
// manifests declare, else the baseline's.
func declaredChange(base, cand Arm) model.Change {
	if cand.Declared != nil {
		return *cand.Declared
	}
	for _, a := range []Arm{cand, base} {
		for _, rd := range a.Runs {
			if c := rd.Run.Manifest.Change(); c.What != "" || len(c.Fields) > 0 {
				return c
			}
		}
	}
	return model.Change{}
}

// sourcedFile names the file a value was read from, not "bundle.yaml" (the usual source).
func sourcedFile(value, source string) string {
	if source == "bundle.yaml" {
		source = ""
	}
	return sourced(value, source)
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// requestSets compares the actual per-request input lengths of the arms: identical seeds must
// give identical request sets. It returns a drift description, or "".
func requestSets(rec *Record, base, cand Arm) string {
	bl, cl := runLengths(base), runLengths(cand)
	fld := Field{State: model.ConditionUnknown}
	defer func() { rec.Workload["request_set"] = fld }()
	if bl == nil || cl == nil {
		fld.Note = "per-request input lengths missing on one side"
		return ""
	}
	bs, cs := summarizeLengths(bl), summarizeLengths(cl)
	fld.Baseline, fld.Candidate = bs, cs
	if slices.Equal(bl, cl) {
		fld.State = model.ConditionSame
		return ""
	}
	fld.State = model.ConditionDiffers
	return fmt.Sprintf("request set (input lengths %s vs %s)", bs, cs)
}

// runLengths is the sorted multiset of input lengths of one run of the arm (all runs of an
// arm replay the same request set when the seed is fixed; the first run stands for them). A
// sample of a run's requests is not its request set.
func runLengths(a Arm) []int {
	for _, rd := range a.Runs {
		if rd.Run.Sampled != nil {
			continue
		}
		var out []int
		for _, r := range rd.Run.Requests {
			if r.InputLen < 0 {
				return nil
			}
			out = append(out, r.InputLen)
		}
		if len(out) > 0 {
			sort.Ints(out)
			return out
		}
	}
	return nil
}

func summarizeLengths(l []int) string {
	sum := 0
	for _, v := range l {
		sum += v
	}
	return fmt.Sprintf("n=%d min=%d mean=%.1f max=%d", len(l), l[0], float64(sum)/float64(len(l)), l[len(l)-1])
}

// outputFree reports whether no run of the arm had its output length fixed by the client: it is
// then the server's outcome, not a condition (rule 12).
func outputFree(a Arm) bool {
	for _, rd := range a.Runs {
		if model.PointOf(rd.Run).OutputFixed != "" {
			return false
		}
	}
	return len(a.Runs) > 0
}

// byValue orders a condition's values as numbers when both are (a sweep's concurrencies read
// 1 | 4 | 16 | 64, not 1 | 16 | 4 | 64), else as text.
func byValue(a, b string) int {
	x, errA := strconv.ParseFloat(a, 64)
	y, errB := strconv.ParseFloat(b, 64)
	if errA == nil && errB == nil && x != y {
		return cmp.Compare(x, y)
	}
	return strings.Compare(a, b)
}
