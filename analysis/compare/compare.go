package compare

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"benchlens/analysis/stats"
	"benchlens/internal/par"
	"benchlens/model"
)

// Compare checks the evidence of METHOD.md for a baseline and a candidate arm and proposes a
// verdict with its causes. It never fails: missing evidence becomes causes and warnings. Arms
// that hold several load points are compared point by point (rule 9).
func Compare(base, cand Arm, set Settings) Record {
	set = set.withDefaults()
	base, cand = base.measured(), cand.measured()
	bp, cp := base.points(), cand.points()
	var rec Record
	if len(bp) <= 1 && len(cp) <= 1 && (len(bp) == 0 || len(cp) == 0 || bp[0].point.Matches(cp[0].point)) {
		rec, _, _ = compareOne(base, cand, set)
		outputLength(&rec, base, cand, bp, cp)
	} else {
		rec = compareSweep(base, cand, bp, cp, set)
	}
	underLoad(&rec, base, cand, set)
	return rec
}

// compareOne applies rules 1-8 to two arms taken as one condition each. It also returns the
// arms with their per-run statistics computed.
func compareOne(base, cand Arm, set Settings) (Record, Arm, Arm) {
	rec, causes := newRecord(base, cand, set)
	e, lens := baselineEdges(base, set)
	arms := []Arm{base, cand}
	prepare(arms, e)
	base, cand = arms[0], arms[1]
	perf := make([]StageDelta, len(model.StageMetrics))
	par.Each(len(perf), 1, func(_, i int) { perf[i] = compareStage(base, cand, model.StageMetrics[i], bucketAll, e, set) })
	for i, m := range model.StageMetrics {
		rec.Perf[m.Key] = perf[i]
	}
	rec.Tails = tails(base, cand)
	prefill, decode := stageBetter(rec.Perf, model.StagePrefill), stageBetter(rec.Perf, model.StageDecode)
	faster := prefill || decode || stageBetter(rec.Perf, model.StageBoth)
	causes = append(causes, evidence(&rec, base, cand, set, faster)...)
	rec.Hotspot.HotspotStage = stageName(prefill, decode)
	buckets(&rec, base, cand, e, lens, set)

	rec.Status, causes = verdict(&rec, causes, prefill, decode)
	rec.Causes = causes
	rec.Buckets.HoldsIn = holdsIn(&rec)
	rec.Notes = append(rec.Notes, stageMismatch(&rec)...)
	if n := bucketNote(&rec); n != "" {
		rec.Notes = append(rec.Notes, n)
	}
	evidenceNotes(&rec)
	return rec, base, cand
}

// newRecord starts a record with rules 1 (conditions) and 2 (repeats, warm-up) applied.
func newRecord(base, cand Arm, set Settings) (Record, []Cause) {
	rec := Record{
		Perf:     map[string]StageDelta{},
		Causes:   []Cause{},
		Settings: set,
		Arms:     Arms{ArmInfo{base.Label, base.ids()}, ArmInfo{cand.Label, cand.ids()}},
	}
	causes := conditions(&rec, base, cand, set)
	rec.Workload["repeat_count"] = repeatField(len(base.Runs), len(cand.Runs))
	causes = append(causes, measurement(&rec, base, cand, set)...)
	rec.DataQuality = dataQuality(base, cand)
	rec.Reproduce = recipe(base, cand)
	return rec, causes
}

// evidence applies rules 3 (path), 5 (overhead) and 8 (hotspot); faster says whether any
// stage got significantly better, which path_unchanged needs.
func evidence(rec *Record, base, cand Arm, set Settings, faster bool) []Cause {
	declared := declaredPath(base, cand)
	causes := path(rec, base, cand, faster, declared)
	overhead(rec, base, cand, set)
	families(rec, base, cand, declared, set)
	hotspot(rec, base, cand, set)
	return causes
}

// evidenceNotes says what the traces could not show.
func evidenceNotes(rec *Record) {
	if rec.Hotspot.Moved == "unverified" {
		rec.Notes = append(rec.Notes, "hotspot unverified: no profiler trace on one side (attach a torch profiler / Kineto trace)")
	}
	switch {
	case !rec.Overhead.Measured && rec.Overhead.Missing != "":
		rec.Notes = append(rec.Notes, "overhead: unmeasured ("+rec.Overhead.Missing+")")
	case !rec.Overhead.Measured:
		rec.Notes = append(rec.Notes, "overhead: unmeasured (no profiler traces)")
	case rec.Overhead.Missing != "":
		rec.Notes = append(rec.Notes, "overhead: partly unmeasured ("+rec.Overhead.Missing+")")
	}
}

func repeatField(nb, nc int) Field {
	f := Field{Baseline: strconv.Itoa(nb), Candidate: strconv.Itoa(nc), State: model.ConditionSame}
	if nb != nc {
		f.State = model.ConditionDiffers
	}
	return f
}

func stageName(prefill, decode bool) string {
	switch {
	case prefill && decode:
		return "both"
	case prefill:
		return "prefill"
	case decode:
		return "decode"
	}
	return "none"
}

// measurement applies rule 2's checks on repeats, warm-up and cold starts.
func measurement(rec *Record, base, cand Arm, set Settings) []Cause {
	m := Measurement{Repeats: [2]int{len(base.Runs), len(cand.Runs)}}
	var reasons []string
	for i, a := range []Arm{base, cand} {
		side := [2]string{"baseline", "candidate"}[i]
		n := len(a.Runs)
		if n < set.MinRepeats {
			reasons = append(reasons, fmt.Sprintf("%s has %d run(s), fewer than %d", side, n, set.MinRepeats))
			m.advise(hint(HintMoreRepeats, set.MinRepeats-n, side))
		}
		declared, undeclared := warmupSummary(a)
		m.WarmupIters[i] = declared
		for _, rd := range a.Warmups {
			if m.WarmupRuns == nil {
				m.WarmupRuns = &PerArm[[]int64]{Baseline: []int64{}, Candidate: []int64{}}
			}
			ids := &m.WarmupRuns.Baseline
			if i == 1 {
				ids = &m.WarmupRuns.Candidate
			}
			*ids = append(*ids, rd.Run.ID)
			m.Warmups = append(m.Warmups, fmt.Sprintf("%s run %d is its warm-up run, not a repeat (%s)", side, rd.Run.ID, rd.Run.PhaseWhy))
		}
		if undeclared > 0 {
			reasons = append(reasons, fmt.Sprintf("%s: %d run(s) record no warm-up (workload.warmup_iters)", side, undeclared))
		}
		for _, rd := range a.Runs {
			if sm := rd.Run.Sampled; sm != nil {
				w := model.Warn(model.WarnRunSampled, side, rd.Run.ID, sm.Records, sm.Population, sm.Why)
				m.Sampled = append(m.Sampled, w.English())
				rec.Warnings = append(rec.Warnings, w)
			}
			if cs := coldStart(rd.Run, set.ColdStartRatio); cs != "" {
				m.ColdStarts = append(m.ColdStarts, fmt.Sprintf("%s run %d: %s", side, rd.Run.ID, cs))
			}
		}
	}
	nb, nc := len(base.Runs), len(cand.Runs)
	if nb >= 2 && nc >= 2 {
		if p := stats.MinPossibleP(nb, nc); p >= set.Alpha {
			need := nb
			for need < 50 && stats.MinPossibleP(need, need) >= set.Alpha {
				need++
			}
			m.advise(hint(HintMinP, nb, nc, p, set.Alpha), hint(HintAtLeast, need))
		}
	} else {
		m.advise(hint(HintOneRun))
	}
	if len(m.ColdStarts) > 0 {
		reasons = append(reasons, "cold-start TTFT spike after the declared warm-up: "+strings.Join(m.ColdStarts, "; "))
	}
	rec.Measurement = m
	w := Field{Baseline: m.WarmupIters[0], Candidate: m.WarmupIters[1], State: model.ConditionSame}
	if warmupCount(w.Baseline) != warmupCount(w.Candidate) {
		w.State = model.ConditionDiffers
	}
	if strings.Contains(w.Baseline+w.Candidate, "unknown") {
		w.State = model.ConditionUnknown
	}
	rec.Workload["warmup_iters"] = w
	if len(reasons) == 0 {
		return nil
	}
	return []Cause{{model.MeasurementUncontrolled, strings.Join(reasons, "; ")}}
}

// warmupSummary says what an arm's runs declare as warm-up, and how many declare none (or 0).
// The arm's warm-up runs (rule 12) are the warm-up of every run that declares none: "50
// (warm-up run 3)", their requests counted as warm-up iterations.
func warmupSummary(a Arm) (string, int) {
	seen := map[string]bool{}
	undeclared := 0
	runs := ""
	if len(a.Warmups) > 0 {
		requests, ids := 0.0, make([]string, len(a.Warmups))
		for i, rd := range a.Warmups {
			ids[i] = strconv.FormatInt(rd.Run.ID, 10)
			if n := rd.Run.Completed; n.Known() {
				requests += n.F()
			} else if n := rd.Run.NumPrompts; n.Known() {
				requests += n.F()
			}
		}
		runs = fmt.Sprintf("%s (warm-up run %s)", model.FormatNum(model.Num(requests)), strings.Join(ids, ","))
	}
	for _, rd := range a.Runs {
		n, ok := warmup(rd.Run)
		switch {
		case (!ok || n == 0) && runs != "":
			seen[runs] = true
		case !ok:
			undeclared++
			seen["unknown"] = true
		case n == 0:
			undeclared++
			seen["0"] = true
		default:
			seen[strconv.Itoa(n)] = true
		}
	}
	return strings.Join(slices.Sorted(maps.Keys(seen)), " | "), undeclared
}

// warmupCount is the numbers of a warm-up summary, without the runs that gave them: arms
// warmed up by the same number of requests are alike however they recorded it.
func warmupCount(s string) string {
	return warmupRunIDs.ReplaceAllString(s, "")
}

var warmupRunIDs = regexp.MustCompile(` \(warm-up run [\d,]+\)`)

// coldStart flags a run whose first measured request (after the declared warm-up) has a TTFT
// far above the run's median: the warm-up did not warm it.
func coldStart(r *model.Run, ratio float64) string {
	reqs := Measured(r)
	xs := Samples(reqs, model.TTFT, nil)
	if len(xs) < 10 {
		return ""
	}
	first := xs[0]
	med := stats.Median(xs)
	if med > 0 && first > ratio*med {
		return fmt.Sprintf("first request's TTFT %.1f ms is %.1fx the run median %.1f ms", first, first/med, med)
	}
	return ""
}

// blocking are the causes of rules 1-3 that keep a verdict from being anything but
// not_established.
var blocking = map[model.CauseCode]bool{model.EnvironmentDiffers: true, model.LoadDrift: true, model.ConditionsUnverified: true,
	model.MeasurementUncontrolled: true, model.TargetNotHit: true, model.PathUnchanged: true, model.PathUnverified: true, model.MixedPaths: true,
	model.PathContradicted: true}

// verdict applies rule 6.
func verdict(rec *Record, causes []Cause, prefill, decode bool) (model.Status, []Cause) {
	blocked := false
	for _, c := range causes {
		blocked = blocked || blocking[c.Code]
	}
	pathOK := rec.Path.Changed != nil && *rec.Path.Changed && (rec.Path.TargetHit == nil || *rec.Path.TargetHit)
	anyBetter := prefill || decode
	e2eBetter := stageBetter(rec.Perf, model.StageBoth)
	otherWorse := (prefill && stageWorse(rec.Perf, model.StageDecode)) || (decode && stageWorse(rec.Perf, model.StagePrefill))
	deviceFell := rec.Overhead.DeviceTime.Delta.Known() && rec.Overhead.DeviceTime.Delta.F() < 0
	targetedFell := rec.Families != nil && rec.Families.Targeted != nil && rec.Families.Targeted.Fell
	gain := anyBetter || deviceFell || targetedFell

	switch {
	case blocked || !pathOK:
		if !blocked {
			causes = append(causes, Cause{model.PathUnverified, "the path evidence is incomplete"})
		}
		return model.NotEstablished, causes
	case gain && rec.Overhead.Grew && (!e2eBetter || otherWorse):
		reason := overheadReason(rec.Overhead)
		if t := targetedReason(rec.Families); t != "" && !anyBetter {
			reason = "the targeted ops got faster (" + t + ") but " + reason
		}
		return model.Offset, append(causes, Cause{model.OffsetByOverhead, reason})
	case anyBetter:
		return model.Established, causes
	case !rec.Overhead.Grew:
		reason := "path changed and hit, conditions fixed, but no stage is significantly better"
		if !rec.Overhead.Measured {
			reason += " (overhead unmeasured)"
		}
		return model.Zero, append(causes, Cause{model.BottleneckNotInStage, reason})
	default:
		return model.NotEstablished, append(causes, Cause{model.OffsetByOverhead,
			"overhead grew (" + overheadReason(rec.Overhead) + ") but no gain was measured that it could offset"})
	}
}

// stageBetter reports whether a stage metric of the stage is significantly better.
func stageBetter(perf map[string]StageDelta, stage model.Stage) bool {
	return slices.ContainsFunc(model.StageMetrics, func(m model.StageMetric) bool { return m.Stage == stage && perf[m.Key].Better })
}

// stageWorse reports whether a stage metric of the stage is significantly worse.
func stageWorse(perf map[string]StageDelta, stage model.Stage) bool {
	return slices.ContainsFunc(model.StageMetrics, func(m model.StageMetric) bool { return m.Stage == stage && perf[m.Key].Worse })
}

// stageMismatch reports one stage better while another is unchanged or worse (rule 4).
func stageMismatch(rec *Record) []string {
	var out []string
	ttft, tpot := rec.Perf[model.TTFT], rec.Perf[model.TPOT]
	switch {
	case ttft.Better && !tpot.Better:
		out = append(out, fmt.Sprintf("stage mismatch: prefill (TTFT %s) improved, decode (TPOT %s) %s", fmtDelta(ttft), fmtDelta(tpot), worseOrSame(tpot)))
	case tpot.Better && !ttft.Better:
		out = append(out, fmt.Sprintf("stage mismatch: decode (TPOT %s) improved, prefill (TTFT %s) %s", fmtDelta(tpot), fmtDelta(ttft), worseOrSame(ttft)))
	}
	return out
}

func worseOrSame(d StageDelta) string {
	if d.Worse {
		return "got worse"
	}
	return "did not change significantly"
}

func fmtDelta(d StageDelta) string {
	if !d.Delta.Known() {
		return "?"
	}
	return Pct(d.Delta.F())
}

// CauseCodes returns the cause codes in a stable order, for display.
func (r Record) CauseCodes() []model.CauseCode {
	out := make([]model.CauseCode, len(r.Causes))
	for i, c := range r.Causes {
		out[i] = c.Code
	}
	slices.Sort(out)
	return out
}
