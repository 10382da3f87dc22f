package compare

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"benchlens/model"
)

// Check is one line of the evidence checklist: a piece of evidence METHOD.md asks for, its
// state, why, and what to record next time.
type Check struct {
	Name   string           `json:"name" yaml:"name"`
	State  model.CheckState `json:"state" yaml:"state"`
	Reason string           `json:"reason" yaml:"reason"`
	Hint   string           `json:"hint,omitempty" yaml:"hint,omitempty"` // the hints in English
	// Hints are what to record next time as data (setHints), worded at the edge.
	Hints []model.Hint `json:"-" yaml:"-"`
}

// Checklist summarises the record as the six checks of METHOD.md: conditions, measurement,
// path, stages, overhead, hotspot; and the SLO's (rule 14) when one is set.
func (r Record) Checklist() []Check {
	has := map[model.CauseCode]Cause{}
	for _, c := range r.Causes {
		has[c.Code] = c
	}
	var out []Check

	// Conditions.
	cond := Check{Name: "conditions", State: model.CheckOK, Reason: "every recorded field is the same on both sides"}
	var differs, unknown, declared []string
	for _, f := range r.conditionFields() {
		switch {
		case f.declared:
			declared = append(declared, f.name)
		case f.state == model.ConditionDiffers:
			differs = append(differs, f.name)
		case f.state == model.ConditionUnknown:
			if f.required {
				unknown = append(unknown, f.name)
			}
		}
	}
	if len(declared) > 0 {
		cond.Reason = "every recorded field but the declared change is the same on both sides"
	}
	switch {
	case len(differs) > 0:
		cond.State, cond.Reason = model.CheckFail, "differs: "+strings.Join(differs, ", ")
		cond.setHints(r.differsHint(differs)...)
	case len(unknown) > 0:
		cond.State, cond.Reason = model.CheckWarn, "not recorded: "+strings.Join(unknown, ", ")
		cond.setHints(hint(HintWriteInto, strings.Join(unknown, ", ")))
	}
	if len(declared) > 0 {
		what := ""
		if r.Change != nil && r.Change.What != "" {
			what = " (" + r.Change.What + ")"
		}
		cond.Reason += "; declared change" + what + ": " + strings.Join(declared, ", ")
	}
	out = append(out, cond)

	// Measurement.
	meas := Check{Name: "measurement", State: model.CheckOK,
		Reason: fmt.Sprintf("%d and %d runs, warm-up %s / %s", r.Measurement.Repeats[0], r.Measurement.Repeats[1], r.Measurement.WarmupIters[0], r.Measurement.WarmupIters[1])}
	if c, ok := has[model.MeasurementUncontrolled]; ok {
		meas.State, meas.Reason = model.CheckFail, c.Reason
		meas.setHints(r.Measurement.advice()...)
		if len(meas.Hints) == 0 {
			meas.setHints(hint(HintWarmup))
		}
	}
	if w := r.Measurement.WarmupRuns; w != nil {
		meas.Reason += fmt.Sprintf("; warm-up runs set apart: baseline %s, candidate %s", idList(w.Baseline), idList(w.Candidate))
	}
	if meas.State == model.CheckOK {
		meas.setHints() // how small a change these runs can show
		if h, ok := PowerHint(r.Measurement.Power); ok {
			meas.setHints(h)
		}
	}
	if len(r.Measurement.Sampled) > 0 {
		meas.Reason += "; " + strings.Join(r.Measurement.Sampled, "; ")
		if meas.State == model.CheckOK {
			meas.State = model.CheckWarn
			meas.setHints(hint(HintSampled))
		}
	}
	if len(r.DataQuality) > 0 {
		data := r.DataQuality[0].English()
		if n := len(r.DataQuality) - 1; n > 0 {
			data += fmt.Sprintf(" (and %d more)", n)
		}
		meas.Reason += "; " + data
		if meas.State == model.CheckOK {
			meas.State = model.CheckWarn
		}
		meas.setHints(append(meas.Hints, hint(HintClock))...)
	}
	out = append(out, meas)

	// Path.
	p := Check{Name: "path", State: model.CheckOK}
	p.Reason = fmt.Sprintf("resolved %s -> %s", orUnknown(r.Path.ResolvedBackend.Baseline), orUnknown(r.Path.ResolvedBackend.Candidate))
	if r.Path.TargetBackend.Candidate != "" {
		p.Reason += fmt.Sprintf(" (candidate target %s)", r.Path.TargetBackend.Candidate)
	}
	for _, code := range []model.CauseCode{model.PathContradicted, model.TargetNotHit, model.MixedPaths, model.PathUnchanged, model.PathUnverified} {
		if c, ok := has[code]; ok {
			p.State, p.Reason = model.CheckFail, c.Reason
			switch code {
			case model.PathUnverified:
				p.State = model.CheckWarn
				p.setHints(hint(HintServerLog))
			case model.TargetNotHit:
				p.setHints(hint(HintFallback))
			case model.PathContradicted:
				p.setHints(hint(HintContradicted))
			case model.PathUnchanged:
				p.setHints(hint(HintSamePath))
			}
			break
		}
	}
	out = append(out, p)
	if k, ok := r.kernelCheck(has); ok {
		out = append(out, k)
	}

	// Stages.
	st := Check{Name: "stages", State: model.CheckOK, Reason: stageParts(r.Perf)}
	if len(r.stageMismatchNotes()) > 0 {
		st.State, st.Reason = model.CheckWarn, r.stageMismatchNotes()[0]
		st.setHints(hint(HintEachStage))
	}
	if r.Hotspot.HotspotStage == "none" {
		st.State = model.CheckWarn
		st.setHints(hint(HintNoBetter))
	}
	switch {
	case len(r.LoadPoints) > 0:
		st = r.pointStages()
	case len(r.Perf) == 0 && len(r.Unmatched) > 0:
		st.Reason = "not compared: the arms share no load point"
		st.setHints(hint(HintSamePoint))
	}
	out = append(out, st)

	// Overhead.
	ov := Check{Name: "overhead", State: model.CheckOK}
	switch {
	case !r.Overhead.Measured && r.Overhead.Missing != "":
		ov.State, ov.Reason = model.CheckWarn, "unmeasured: "+r.Overhead.Missing
		ov.setHints(hint(HintHostTrace))
	case !r.Overhead.Measured:
		ov.State, ov.Reason = model.CheckWarn, "unmeasured: no profiler traces"
		ov.setHints(hint(HintKineto))
	case r.Overhead.Grew:
		ov.State, ov.Reason = model.CheckFail, "grew: "+overheadReason(r.Overhead)
		ov.setHints(hint(HintRemoveOverhead))
	case r.Overhead.Missing != "":
		// No growth in what was measured is no all-clear for what was not.
		ov.State, ov.Reason = model.CheckWarn, "no growth where measured: "+overheadReason(r.Overhead)+"; "+r.Overhead.Missing
		ov.setHints(hint(HintHostTrace))
	default:
		ov.Reason = "no growth: " + overheadReason(r.Overhead)
	}
	var grew []string
	for _, p := range r.LoadPoints {
		for _, c := range p.Causes {
			if c.Code == model.OffsetByOverhead {
				grew = append(grew, "at "+p.Label+": "+c.Reason)
			}
		}
	}
	if len(grew) > 0 {
		ov.State, ov.Reason = model.CheckFail, "grew "+strings.Join(grew, "; ")
		ov.setHints(hint(HintRemoveOverhead))
	}
	out = append(out, ov)

	// Hotspot.
	hs := Check{Name: "hotspot", State: model.CheckOK}
	hs.Reason = fmt.Sprintf("utilisation %s -> %s; top ops moved: %s", orUnknown(r.Hotspot.DeviceUtilTrace.Baseline), orUnknown(r.Hotspot.DeviceUtilTrace.Candidate), r.Hotspot.Moved)
	if r.Hotspot.Moved == "unverified" || r.Hotspot.DeviceUtilTrace.Candidate == "" {
		hs.State = model.CheckWarn
		hs.setHints(hint(HintUtilTrace))
	}
	if r.Hotspot.Remedy != "" && r.Status != model.Established { // no remedy for a gain that stands
		hs.Reason += "; " + r.Hotspot.Remedy
	}
	out = append(out, hs)

	// SLO (rule 14), when one is set.
	if r.SLO != nil {
		state, reason, h := r.SLO.Check()
		c := Check{Name: "slo", State: state, Reason: reason}
		if h != "" {
			c.setHints(sloHints(h)...)
		}
		out = append(out, c)
	}
	return out
}

// idList writes run ids as "3,4", "none" for none.
func idList(ids []int64) string {
	if len(ids) == 0 {
		return "none"
	}
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprint(id)
	}
	return strings.Join(parts, ",")
}

// differsHint says what to do about conditions that differ: repeat with the same values, or,
// for what is often the change itself (the checkpoint, an engine setting), declare it, with
// the exact bundle.yaml line (rule 10).
func (r Record) differsHint(differs []string) []model.Hint {
	var repeat, declare []string
	for _, d := range differs {
		if d == "workload.model_name" || strings.HasPrefix(d, "engine_config.") {
			declare = append(declare, d)
		} else {
			repeat = append(repeat, d)
		}
	}
	var hints []model.Hint
	if len(repeat) > 0 {
		hints = append(hints, hint(HintRepeatSame, strings.Join(repeat, ", ")))
	}
	if len(declare) > 0 {
		path := ""
		if slices.Contains(declare, "workload.model_name") && quantisedName(r.Workload["model_name"].Candidate) ||
			slices.Contains(declare, "engine_config.quantization") {
			path = ", path: linear"
		}
		hints = append(hints, hint(HintDeclare, strings.Join(declare, " and "),
			fmt.Sprintf(`change: {what: "…", fields: [%s]%s}`, strings.Join(declare, ", "), path)))
	}
	return hints
}

// quantisedName reports whether a model name says it is a quantised checkpoint ("…-FP8").
func quantisedName(name string) bool {
	n := strings.ToLower(name)
	return slices.ContainsFunc(engineSettings[quantizationSetting].words, func(w string) bool { return w != "quant" && strings.Contains(n, w) })
}

type fieldState struct {
	name               string
	state              model.ConditionState
	required, declared bool
}

// stageParts lists each stage's outcome: "ttft better (−9.3 %), tpot ~ (+0.2 %)".
func stageParts(perf map[string]StageDelta) string {
	var parts []string
	for _, m := range model.StageMetrics {
		k := m.Key
		d, ok := perf[k]
		if !ok || !d.Delta.Known() {
			continue
		}
		mark := "~"
		switch {
		case d.Better:
			mark = "better"
		case d.Worse:
			mark = "worse"
		}
		parts = append(parts, fmt.Sprintf("%s %s (%s)", k, mark, Pct(d.Delta.F())))
	}
	return strings.Join(parts, ", ")
}

// ListedPoints is the most load points a sweep's stage line (and its headline) lists one by
// one; past it each stage is summed up over the points (a lab's 36-point sweep wrote 180
// clauses in one line, which the load points table shows point by point anyway).
const ListedPoints = 4

// pointStages is the stages check of a sweep: each point's stages, since pooling points
// of different load would mix unlike distributions.
func (r Record) pointStages() Check {
	st := Check{Name: "stages", State: model.CheckWarn}
	st.setHints(hint(HintNoBetterAnywhere))
	var parts []string
	for _, p := range r.LoadPoints {
		parts = append(parts, p.Label+": "+stageParts(p.Deltas))
		for _, m := range model.StageGainMetrics() {
			if p.Deltas[m.Key].Better {
				st.State = model.CheckOK
				st.setHints()
			}
		}
	}
	st.Reason = strings.Join(parts, "; ")
	if len(r.LoadPoints) > ListedPoints {
		st.Reason = stageTally(r.LoadPoints)
	}
	return st
}

// stageTally sums each stage up over a sweep's points: at how many it is better, worse or not
// significantly changed, and the least and greatest change: "36 load points: ttft better at
// 33, worse at 1, ~ at 2 (−28.0 % to +11.6 %); tpot better at all 36 (…)".
func stageTally(points []LoadPointResult) string {
	var parts []string
	for _, m := range model.StageMetrics {
		var better, worse, same int
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, p := range points {
			d, ok := p.Deltas[m.Key]
			if !ok || !d.Delta.Known() {
				continue
			}
			switch {
			case d.Better:
				better++
			case d.Worse:
				worse++
			default:
				same++
			}
			lo, hi = math.Min(lo, d.Delta.F()), math.Max(hi, d.Delta.F())
		}
		n := better + worse + same
		if n == 0 {
			continue
		}
		var counts []string
		for _, c := range []struct {
			mark string
			n    int
		}{{"better", better}, {"worse", worse}, {"~", same}} {
			switch {
			case c.n == n && n == len(points):
				counts = append(counts, fmt.Sprintf("%s at all %d", c.mark, n))
			case c.n > 0:
				counts = append(counts, fmt.Sprintf("%s at %d", c.mark, c.n))
			}
		}
		of := ""
		if n < len(points) {
			of = fmt.Sprintf(" of %d", n)
		}
		span := Pct(lo)
		if Pct(lo) != Pct(hi) {
			span += " to " + Pct(hi)
		}
		parts = append(parts, fmt.Sprintf("%s %s%s (%s)", m.Key, strings.Join(counts, ", "), of, span))
	}
	return fmt.Sprintf("%d load points: %s", len(points), strings.Join(parts, "; "))
}

// conditionFields lists every condition field of the record, in a stable order.
func (r Record) conditionFields() []fieldState {
	var out []fieldState
	for _, c := range r.Conditions() {
		out = append(out, fieldState{c.Name, c.State, c.Required, c.Declared})
	}
	return out
}

// Condition is one recorded condition with both arms' values side by side.
type Condition struct {
	Name string // dotted: stack_fingerprint.driver_version, hardware_sku, workload.seed …
	Field
}

// SourceText says where both arms' values of a condition were read, shortly: the file name
// and line ("collect_env.txt line 27"), once when both arms read it at the same place of
// their own copy, else per arm; "" when neither names a source.
func (f Field) SourceText() string {
	if f.Source == nil {
		return ""
	}
	short := func(s string) string { return s[strings.LastIndexAny(s, `/\`)+1:] }
	b, c := short(f.Source.Baseline), short(f.Source.Candidate)
	switch {
	case b == c:
		return b
	case b == "":
		return "candidate: " + c
	case c == "":
		return "baseline: " + b
	}
	return "baseline: " + b + "; candidate: " + c
}

// Conditions lists the recorded conditions in METHOD.md's order: stack fingerprint, hardware,
// node, workload, then the engine configuration of rule 12, each sorted by name.
func (r Record) Conditions() []Condition {
	var out []Condition
	add := func(prefix string, m map[string]Field) {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			out = append(out, Condition{prefix + k, m[k]})
		}
	}
	add("stack_fingerprint.", r.StackFingerprint)
	out = append(out, Condition{"hardware_sku", r.HardwareSKU})
	add("node.", r.Node)
	add("workload.", r.Workload)
	add("engine_config.", r.EngineConfig)
	return out
}

func (r Record) stageMismatchNotes() []string {
	var out []string
	for _, n := range r.Notes {
		if strings.HasPrefix(n, "stage mismatch") {
			out = append(out, n)
		}
	}
	return out
}

// sloHints are the SLO check's hints (analysis/slo words them in English, one key each).
func sloHints(line string) []model.Hint {
	var out []model.Hint
	for _, h := range strings.Split(line, "; ") {
		out = append(out, model.Hint{Key: h})
	}
	return out
}
