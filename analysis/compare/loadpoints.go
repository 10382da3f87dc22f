package compare

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"benchlens/analysis/stats"
	"benchlens/model"
)

// LoadPointResult is one load point both arms ran, with its own verdict (rule 9).
type LoadPointResult struct {
	model.LoadPoint `yaml:",inline"`
	Label           string                `json:"label" yaml:"label"` // "concurrency 64"
	Repeats         PerArm[int]           `json:"repeats" yaml:"repeats"`
	Runs            PerArm[[]int64]       `json:"runs" yaml:"runs"`
	Status          model.Status          `json:"status" yaml:"status"`
	Causes          []Cause               `json:"causes" yaml:"causes"`
	Deltas          map[string]StageDelta `json:"deltas" yaml:"deltas"` // ttft, tpot, itl, e2el, e2e_throughput
	// Tails and Buckets are the point's own tails and input-length buckets (rules 4 and 7):
	// a sweep's are only ever per point.
	Tails   map[string]Tail    `json:"tails,omitempty" yaml:"tails,omitempty"`
	Buckets *Buckets           `json:"buckets,omitempty" yaml:"buckets,omitempty"`
	Curve   PerArm[CurvePoint] `json:"curve" yaml:"curve"`
	// Output is each arm's output length at the point, a result like a stage when the client
	// did not fix it (rule 12); nil when an arm's files do not say.
	Output *OutputLength `json:"output_length,omitempty" yaml:"output_length,omitempty"`
}

// OutputLength is the arms' mean output length per request (the median over their runs) and
// its change: part of the point when both clients fixed it, else an outcome of the server.
type OutputLength struct {
	Baseline  model.Num `json:"baseline" yaml:"baseline"` // tokens
	Candidate model.Num `json:"candidate" yaml:"candidate"`
	Delta     model.Num `json:"delta_pct" yaml:"delta_pct"` // candidate / baseline - 1, in %
	Fixed     bool      `json:"fixed" yaml:"fixed"`         // both clients controlled it
}

// UnmatchedPoint is a load point only one arm ran: listed, never called drift.
type UnmatchedPoint struct {
	model.LoadPoint `yaml:",inline"`
	Label           string  `json:"label" yaml:"label"`
	Arm             string  `json:"arm" yaml:"arm"` // baseline or candidate
	Runs            []int64 `json:"runs" yaml:"runs"`
}

// PerArm is a value for each arm.
type PerArm[T any] struct {
	Baseline  T `json:"baseline" yaml:"baseline"`
	Candidate T `json:"candidate" yaml:"candidate"`
}

// CurvePoint is an arm's position on the load curves at one point: output throughput against
// TTFT and TPOT (p50 and p99), each the median over the repeats with their range.
type CurvePoint struct {
	Throughput Spread `json:"output_tok_s" yaml:"output_tok_s"`
	TTFTP50    Spread `json:"ttft_p50_ms" yaml:"ttft_p50_ms"`
	TTFTP99    Spread `json:"ttft_p99_ms" yaml:"ttft_p99_ms"`
	TPOTP50    Spread `json:"tpot_p50_ms" yaml:"tpot_p50_ms"`
	TPOTP99    Spread `json:"tpot_p99_ms" yaml:"tpot_p99_ms"`
}

// Spread is the median of the per-run values and their lowest and highest.
type Spread struct {
	Median model.Num `json:"median" yaml:"median"`
	Min    model.Num `json:"min" yaml:"min"`
	Max    model.Num `json:"max" yaml:"max"`
}

// statusRank orders verdicts best first (rule 9).
var statusRank = map[model.Status]int{model.Established: 0, model.Offset: 1, model.Zero: 2, model.NotEstablished: 3}

// pointGroup is the runs of an arm at one load point.
type pointGroup struct {
	point model.LoadPoint
	idx   []int
}

// points groups the arm's runs by load point (model.LoadPoint.Same: the same load and request
// shape), ordered by concurrency, then rate, then shape.
func (a Arm) points() []pointGroup {
	var out []pointGroup
	for i, rd := range a.Runs {
		p := model.PointOf(rd.Run)
		k := slices.IndexFunc(out, func(g pointGroup) bool { return g.point.Same(p) })
		if k < 0 {
			out = append(out, pointGroup{point: p})
			k = len(out) - 1
		}
		out[k].idx = append(out[k].idx, i)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].point.Less(out[j].point) })
	return out
}

// compareSweep matches the arms' load points and applies rules 1-8 at each matched point; the
// top-level record pools the matched runs for its sections and takes its status and causes
// from the points (rule 9).
func compareSweep(base, cand Arm, bp, cp []pointGroup, set Settings) Record {
	type pair struct{ b, c pointGroup }
	var pairs []pair
	var unmatched []UnmatchedPoint
	used := make([]bool, len(cp))
	for _, b := range bp {
		k := -1
		for j, c := range cp {
			// the candidate point the baseline's matches, the nearest output length first
			if !used[j] && c.point.Matches(b.point) && (k < 0 || outputGap(b.point, c.point) < outputGap(b.point, cp[k].point)) {
				k = j
			}
		}
		if k < 0 {
			unmatched = append(unmatched, unmatchedPoint(b, base, "baseline"))
			continue
		}
		used[k] = true
		pairs = append(pairs, pair{b, cp[k]})
	}
	for j, c := range cp {
		if !used[j] {
			unmatched = append(unmatched, unmatchedPoint(c, cand, "candidate"))
		}
	}
	if len(pairs) == 0 {
		return noCommonPoint(base, cand, bp, cp, unmatched, set)
	}

	var bIdx, cIdx []int
	var subs []Record
	var results []LoadPointResult
	for _, p := range pairs {
		sub, sb, sc := compareOne(base.subset(p.b.idx).warmupsAt(p.b.point), cand.subset(p.c.idx).warmupsAt(p.c.point), set)
		subs = append(subs, sub)
		results = append(results, LoadPointResult{
			LoadPoint: p.b.point, Label: p.b.point.Label(),
			Repeats: PerArm[int]{len(p.b.idx), len(p.c.idx)},
			Runs:    PerArm[[]int64]{sb.ids(), sc.ids()},
			Status:  sub.Status, Causes: append([]Cause{}, sub.Causes...),
			Deltas: sub.Perf, Tails: sub.Tails, Buckets: &sub.Buckets,
			Curve:  PerArm[CurvePoint]{curvePoint(sb), curvePoint(sc)},
			Output: outputOf(sb, sc, p.b.point, p.c.point),
		})
		bIdx, cIdx = append(bIdx, p.b.idx...), append(cIdx, p.c.idx...)
	}
	// The top level: conditions, path, overhead and hotspot over the matched runs; stages
	// and buckets only per point, where the loads are alike (and their statistics computed).
	rec, pooled := newRecord(base.subset(bIdx), cand.subset(cIdx), set)
	faster, stage := false, "none"
	for _, s := range subs {
		faster = faster || slices.ContainsFunc(model.StageMetrics, func(m model.StageMetric) bool { return s.Perf[m.Key].Better })
		if s.Hotspot.HotspotStage != "none" && stage == "none" {
			stage = s.Hotspot.HotspotStage
		}
	}
	evidence(&rec, base.subset(bIdx), cand.subset(cIdx), set, faster)
	rec.Hotspot.HotspotStage = stage
	rec.Buckets = Buckets{Edges: []float64{}, Rows: []BucketResult{}, HoldsIn: []string{}} // per point
	rec.Arms = Arms{ArmInfo{base.Label, base.ids()}, ArmInfo{cand.Label, cand.ids()}}
	rec.DataQuality, rec.Reproduce = dataQuality(base, cand), recipe(base, cand) // every run, matched or not
	rec.LoadPoints, rec.Unmatched = results, unmatched
	pointConditions(&rec, subs)
	for _, s := range subs { // the pooled traces would average the growth away
		if s.Overhead.Grew {
			rec.Overhead = s.Overhead
			break
		}
	}
	pointVerdict(&rec, results)
	// An environment that changed between the points of one arm is not the sweep's doing.
	for _, c := range pooled {
		if c.Code == model.EnvironmentDiffers && !slices.ContainsFunc(rec.Causes, func(x Cause) bool { return x.Code == c.Code }) {
			rec.Status, rec.Causes = model.NotEstablished, append(rec.Causes, c)
		}
	}
	rec.Notes = append([]string{fmt.Sprintf("%d load points matched: stages and buckets are compared per point (load_points)", len(results))}, rec.Notes...)
	evidenceNotes(&rec)
	for _, p := range results {
		if n := outputNote("at "+p.Label+": ", p.Output); n != "" {
			rec.Notes = append(rec.Notes, n)
		}
	}
	if len(unmatched) > 0 {
		var names []string
		for _, u := range unmatched {
			names = append(names, u.Label+" ("+u.Arm+" only)")
		}
		rec.Notes = append(rec.Notes, "unmatched load points, not compared: "+strings.Join(names, ", "))
	}
	return rec
}

// warmupsAt keeps the arm's warm-up runs of point p, when it has any there: a sweep's warm-up
// run per point warms that point; one warm-up run for the whole sweep warms every point.
func (a Arm) warmupsAt(p model.LoadPoint) Arm {
	var at []RunData
	for _, rd := range a.Warmups {
		if model.PointOf(rd.Run).Same(p) {
			at = append(at, rd)
		}
	}
	if len(at) > 0 {
		a.Warmups = at
	}
	return a
}

// outputGap is how far apart two points' output lengths are, relative; 0 when one is unknown.
func outputGap(a, b model.LoadPoint) float64 {
	if !a.OutputLen.Known() || !b.OutputLen.Known() {
		return 0
	}
	return math.Abs(a.OutputLen.F()-b.OutputLen.F()) / math.Max(a.OutputLen.F(), b.OutputLen.F())
}

// noCommonPoint is the record of arms that share no load point: nothing is compared stage by
// stage (different loads give different latencies whatever changed), and the verdict says the
// load differs, naming what each arm ran.
func noCommonPoint(base, cand Arm, bp, cp []pointGroup, unmatched []UnmatchedPoint, set Settings) Record {
	rec, causes := newRecord(base, cand, set)
	causes = append(causes, evidence(&rec, base, cand, set, false)...)
	names := func(gs []pointGroup) string {
		var out []string
		for _, g := range gs {
			out = append(out, g.point.Label())
		}
		return strings.Join(out, "; ")
	}
	causes = append(causes, Cause{model.LoadDrift, fmt.Sprintf("the arms share no load point: baseline ran %s; candidate ran %s",
		names(bp), names(cp))})
	rec.Status, rec.Causes, rec.Unmatched = model.NotEstablished, mergeCodes(causes), unmatched
	rec.Hotspot.HotspotStage = "none"
	rec.Buckets = Buckets{Edges: []float64{}, Rows: []BucketResult{}, HoldsIn: []string{}}
	rec.Notes = append(rec.Notes, "stages not compared: the arms share no load point (unmatched lists what each ran)")
	evidenceNotes(&rec)
	return rec
}

// mergeCodes joins causes of one code into one, their reasons in order.
func mergeCodes(causes []Cause) []Cause {
	var out []Cause
	for _, c := range causes {
		if k := slices.IndexFunc(out, func(o Cause) bool { return o.Code == c.Code }); k >= 0 {
			out[k].Reason += "; " + c.Reason
			continue
		}
		out = append(out, c)
	}
	return out
}

// outputOf is the arms' output length at a point; nil when either arm's files do not say.
func outputOf(b, c Arm, bp, cp model.LoadPoint) *OutputLength {
	med := func(a Arm) model.Num {
		var xs []float64
		for _, rd := range a.Runs {
			if n := model.MeanOutput(rd.Run); n.Known() {
				xs = append(xs, n.F())
			}
		}
		if len(xs) == 0 {
			return model.Unknown
		}
		return model.Num(stats.Median(xs))
	}
	o := &OutputLength{Baseline: med(b), Candidate: med(c), Delta: model.Unknown, Fixed: bp.OutputFixed != "" && cp.OutputFixed != ""}
	if !o.Baseline.Known() || !o.Candidate.Known() {
		return nil
	}
	if o.Baseline > 0 {
		o.Delta = model.Num(100 * (o.Candidate.F()/o.Baseline.F() - 1))
	}
	return o
}

// outputNote says how the output length moved when the clients did not fix it: a result of
// the server like a stage's, "output length -12.0 % (an outcome: ...)"; "" when it was fixed
// or moved less than a percent.
func outputNote(where string, o *OutputLength) string {
	if o == nil || o.Fixed || !o.Delta.Known() || math.Abs(o.Delta.F()) < 1 {
		return ""
	}
	return fmt.Sprintf("%soutput length %+.1f %% (%s → %s tokens per request): an outcome of the server, the clients did not fix it",
		where, o.Delta.F(), o.Baseline.Readable(), o.Candidate.Readable())
}

// outputLength adds the output length of arms compared as one point each.
func outputLength(rec *Record, base, cand Arm, bp, cp []pointGroup) {
	if len(bp) != 1 || len(cp) != 1 {
		return
	}
	rec.Output = outputOf(base, cand, bp[0].point, cp[0].point)
	if n := outputNote("", rec.Output); n != "" {
		rec.Notes = append(rec.Notes, n)
	}
}

func unmatchedPoint(g pointGroup, a Arm, side string) UnmatchedPoint {
	return UnmatchedPoint{LoadPoint: g.point, Label: g.point.Label(), Arm: side, Runs: a.subset(g.idx).ids()}
}

// curvePoint summarises a prepared arm's runs for the load curves.
func curvePoint(a Arm) CurvePoint {
	spread := func(metric, stat string) Spread {
		xs := a.values(metric, stat)
		if len(xs) == 0 {
			return Spread{model.Unknown, model.Unknown, model.Unknown}
		}
		return Spread{model.Num(stats.Median(xs)), model.Num(slices.Min(xs)), model.Num(slices.Max(xs))}
	}
	return CurvePoint{Throughput: spread(model.Throughput, bucketAll),
		TTFTP50: spread(model.TTFT, bucketAll), TTFTP99: spread(model.TTFT, tailP99),
		TPOTP50: spread(model.TPOT, bucketAll), TPOTP99: spread(model.TPOT, tailP99)}
}

// pointConditions replaces the pooled workload fields by the points' own: a field is as bad
// as it is at its worst point, so the sweep's own variation is not called drift.
func pointConditions(rec *Record, subs []Record) {
	worst := map[model.ConditionState]int{model.ConditionSame: 0, model.ConditionUnknown: 1, model.ConditionDiffers: 2}
	for key, f := range rec.Workload {
		state, seen := model.ConditionSame, false
		for _, s := range subs {
			if sf, ok := s.Workload[key]; ok {
				seen = true
				if worst[sf.State] > worst[state] {
					state = sf.State
				}
			}
		}
		if seen && state != f.State {
			f.State = state
			if state == model.ConditionSame {
				f.Note = strings.TrimPrefix(f.Note+"; one value per load point", "; ")
			}
			rec.Workload[key] = f
		}
	}
	lo, hi := [2]int{1 << 30, 1 << 30}, [2]int{}
	for _, s := range subs {
		for i := range 2 {
			lo[i], hi[i] = min(lo[i], s.Measurement.Repeats[i]), max(hi[i], s.Measurement.Repeats[i])
		}
	}
	per := func(i int) string {
		if lo[i] == hi[i] {
			return fmt.Sprintf("%d per point", lo[i])
		}
		return fmt.Sprintf("%d-%d per point", lo[i], hi[i])
	}
	rc := Field{Baseline: per(0), Candidate: per(1), State: model.ConditionSame}
	if rc.Baseline != rc.Candidate {
		rc.State = model.ConditionDiffers
	}
	rec.Workload["repeat_count"] = rc
	rec.Measurement.Repeats = lo
	rec.Measurement.Advice, rec.Measurement.Hints = nil, nil
	for _, s := range subs {
		for _, a := range s.Measurement.Advice {
			if !slices.Contains(rec.Measurement.Advice, a) {
				rec.Measurement.Advice = append(rec.Measurement.Advice, a)
			}
		}
		for _, h := range s.Measurement.Hints {
			if !slices.ContainsFunc(rec.Measurement.Hints, func(x model.Hint) bool { return x.Key == h.Key && slices.Equal(x.Args, h.Args) }) {
				rec.Measurement.Hints = append(rec.Measurement.Hints, h)
			}
		}
	}
}

// pointVerdict applies rule 9: the common status when every point agrees, else the best
// status reached with cause load_dependent; holds_under says where each status holds.
func pointVerdict(rec *Record, points []LoadPointResult) {
	best := model.NotEstablished
	for _, p := range points {
		if statusRank[p.Status] < statusRank[best] {
			best = p.Status
		}
	}
	var at []LoadPointResult
	var elsewhere []string
	for _, p := range points {
		if p.Status == best {
			at = append(at, p)
		} else {
			elsewhere = append(elsewhere, fmt.Sprintf("%s (%s)", p.Label, p.Status))
		}
	}
	rec.Status = best
	rec.Causes = mergeCauses(at)
	if len(elsewhere) > 0 {
		rec.Causes = append(rec.Causes, Cause{model.LoadDependent, fmt.Sprintf("%s at %s; not at %s",
			best, pointRange(points, best), strings.Join(elsewhere, ", "))})
	}
	rec.HoldsUnder = holdsUnder(points)
}

// mergeCauses joins the causes of several points: one cause per code, its reason once when
// every point gives the same, else per point.
func mergeCauses(points []LoadPointResult) []Cause {
	var codes []model.CauseCode
	reasons := map[model.CauseCode][]string{}
	for _, p := range points {
		for _, c := range p.Causes {
			if _, ok := reasons[c.Code]; !ok {
				codes = append(codes, c.Code)
			}
			reasons[c.Code] = append(reasons[c.Code], "at "+p.Label+": "+c.Reason)
		}
	}
	out := make([]Cause, 0, len(codes))
	for _, code := range codes {
		rs := reasons[code]
		first := rs[0][strings.Index(rs[0], ": ")+2:]
		same := len(rs) == len(points)
		for _, r := range rs {
			same = same && r[strings.Index(r, ": ")+2:] == first
		}
		if same {
			out = append(out, Cause{code, first})
		} else {
			out = append(out, Cause{code, strings.Join(rs, "; ")})
		}
	}
	return out
}

// holdsUnder says in one line where each status holds, best first:
// "established at concurrency 1-16; offset at 64".
func holdsUnder(points []LoadPointResult) string {
	var statuses []model.Status
	for _, p := range points {
		if !slices.Contains(statuses, p.Status) {
			statuses = append(statuses, p.Status)
		}
	}
	slices.SortFunc(statuses, func(a, b model.Status) int { return statusRank[a] - statusRank[b] })
	axis, _, _ := sweepAxis(points)
	parts := make([]string, len(statuses))
	for i, s := range statuses {
		r := pointRange(points, s)
		if i > 0 && axis != "" {
			r = strings.TrimPrefix(r, axis) // "established at concurrency 1-16; offset at 64"
		}
		parts[i] = fmt.Sprintf("%s at %s", s, r)
	}
	return strings.Join(parts, "; ")
}

// pointRange names the points at a status along the sweep's axis, runs of neighbouring points
// as ranges: "concurrency 1-16, 64", "rate 2-8 req/s", "input 1000-30000 tok" (a sweep of
// request shapes); other sweeps by their labels (pointsNamed).
func pointRange(points []LoadPointResult, s model.Status) string {
	axis, unit, value := sweepAxis(points)
	if axis == "" {
		return pointsNamed(points, s)
	}
	var runs []string
	for i := 0; i < len(points); i++ {
		if points[i].Status != s {
			continue
		}
		j := i
		for j+1 < len(points) && points[j+1].Status == s {
			j++
		}
		if j > i {
			runs = append(runs, value(points[i])+"-"+value(points[j]))
		} else {
			runs = append(runs, value(points[i]))
		}
		i = j
	}
	return axis + strings.Join(runs, ", ") + unit
}

// sweepAxis is what a sweep's points differ in alone, its unit and each point's value on it:
// concurrency, rate or input length; "" when they differ in none alone.
func sweepAxis(points []LoadPointResult) (axis, unit string, value func(LoadPointResult) string) {
	switch {
	case distinct(points, func(p LoadPointResult) model.Num { return p.MaxConcurrency }):
		return "concurrency ", "", func(p LoadPointResult) string { return model.FormatNum(p.MaxConcurrency) }
	case distinct(points, func(p LoadPointResult) model.Num { return p.RequestRate }):
		return "rate ", " req/s", func(p LoadPointResult) string { return model.FormatNum(p.RequestRate) }
	case distinct(points, func(p LoadPointResult) model.Num { return p.InputLen }):
		return "input ", " tok", func(p LoadPointResult) string { return model.FormatNum(p.InputLen) }
	}
	return "", "", nil
}

// pointsNamed names the points at a status of a sweep along no single axis (concurrencies
// times request shapes, as labs sweep them): each by its label up to ListedPoints, else how
// many. A range of two labels, "concurrency 1, rate 10 req/s · ≈464→≈85 tok-concurrency 256,
// rate 10 req/s · ≈939→≈512 tok", named neither end's neighbours.
func pointsNamed(points []LoadPointResult, s model.Status) string {
	var at []string
	for _, p := range points {
		if p.Status == s {
			at = append(at, p.Label)
		}
	}
	switch {
	case len(at) > 1 && len(at) == len(points):
		return fmt.Sprintf("all %d points", len(at))
	case len(at) > ListedPoints:
		return fmt.Sprintf("%d of %d points", len(at), len(points))
	}
	return strings.Join(at, " and ")
}

// distinct reports whether every point has a known, different value of the axis.
func distinct(points []LoadPointResult, v func(LoadPointResult) model.Num) bool {
	seen := map[float64]bool{}
	for _, p := range points {
		n := v(p)
		if !n.Known() || seen[n.F()] {
			return false
		}
		seen[n.F()] = true
	}
	return true
}
