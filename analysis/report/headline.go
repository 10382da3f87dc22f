package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"benchlens/analysis/compare"
	"benchlens/analysis/stats"
	"benchlens/model"
)

// The headline is the one sentence a comparison is read by, with the numbers it rests on:
// what moved, by how much, where it holds and, when it does not count, why. It is computed
// here once; the app, the text report, the Markdown and the workbook show this one text.
//
//	established, one point:  "ITL −10.7 %, p=0.00794 — ITL, TPOT tie at p=0.00794, the floor for 5+5 runs: the largest change is named"
//	not_established, sweep:  "FP8 faster at every point: TTFT −23 %, TPOT −30 % at c=1; −16 % / −20 % at c=64 — not attributable: model_name differs, 1 run per arm, no server log"
//	load-dependent sweep:    "established at c=1–16 (ITL −10 to −11 %); offset at c=64 (TPOT +2.5 %: overhead grew)"
//
// The record's SLO section, when there is one, adds its attainment change (sloSpans): the hook
// for a headline in a service owner's terms.

// Tone is what a span's colour means in a view: a change for the better (green) or for the
// worse (red), whatever its sign; Plain for words. The status has its own badge.
type Tone int

// Tones.
const (
	Plain Tone = iota
	Better
	Worse
)

// Span is a run of the headline: words, and a tone when it is a change.
type Span struct {
	Words
	Tone Tone
}

// Headline is a comparison's headline: the proposed status (its badge) and the sentence.
type Headline struct {
	Status model.Status
	Spans  []Span
}

// Text is the sentence in a language.
func (h Headline) Text(l Lang) string {
	var b strings.Builder
	for _, s := range h.Spans {
		b.WriteString(s.In(l))
	}
	return b.String()
}

// String is the sentence in English.
func (h Headline) String() string { return h.Text(English) }

// HeadlineOf computes the headline of a comparison.
func HeadlineOf(rec compare.Record) Headline {
	h := Headline{Status: rec.Status}
	var b spans
	if len(rec.LoadPoints) > 0 {
		sweepHeadline(&b, rec)
	} else {
		pointHeadline(&b, rec)
	}
	if s, ok := sloSpans(rec); ok {
		b.plain(" · ")
		b.add(s...)
	}
	h.Spans = b
	return h
}

// spans builds a headline; plain is punctuation, worded per language.
type spans []Span

func (b *spans) add(s ...Span)            { *b = append(*b, s...) }
func (b *spans) plain(s string)           { b.add(Span{Words: Say(s)}) }
func (b *spans) say(key string, a ...any) { b.add(Span{Words: Say(key, a...)}) }
func (b *spans) change(w Words, d compare.StageDelta) {
	b.add(Span{Words: w, Tone: toneOf(d)})
}

func toneOf(d compare.StageDelta) Tone {
	switch {
	case d.Better:
		return Better
	case d.Worse:
		return Worse
	}
	return Plain
}

// pointHeadline is the headline of arms that ran one load point.
func pointHeadline(b *spans, rec compare.Record) {
	if len(rec.Perf) == 0 {
		b.say("no stage compared")
		notCounted(b, rec, rec.Causes)
		return
	}
	switch rec.Status {
	case model.Established, model.Offset:
		if lead, ok := leadGain(rec.Perf); ok {
			b.change(Lit(Change(lead.short, lead.d)), lead.d)
			for _, m := range headMoves(rec.Perf) {
				if m.d.Worse {
					b.plain("; ")
					b.change(Lit(Change(m.short, m.d)), m.d)
				}
			}
			if rec.Status == model.Offset {
				b.plain(" — ")
				b.say("offset: %s", causeShorts(rec, rec.Causes))
			}
			tieNote(b, lead)
			return
		}
	case model.Zero:
		b.say("no stage changed significantly")
		if d, ok := rec.Perf[model.TPOT]; ok && d.Delta.Known() {
			b.plain(": ")
			b.change(Lit(Change("TPOT", d)), d)
		}
		return
	}
	moves := headMoves(rec.Perf)
	if len(moves) == 0 {
		b.say("no stage changed significantly")
		if d, ok := rec.Perf[model.TPOT]; ok && d.Delta.Known() {
			b.plain(": ")
			b.change(Lit(Change("TPOT", d)), d)
		}
	} else {
		b.say(directionKey(moves, ""), who(rec))
		b.plain(": ")
		for i, m := range moves {
			if i > 0 {
				b.plain(", ")
			}
			b.change(Lit(Change(m.short, m.d)), m.d)
		}
	}
	notCounted(b, rec, rec.Causes)
}

// notCounted says why what moved does not count: " — not attributable: model_name differs,
// 1 run per arm, no server log"; nothing when no cause stands against it.
func notCounted(b *spans, rec compare.Record, causes []compare.Cause) {
	if s := causeShorts(rec, causes); len(s) > 0 {
		b.plain(" — ")
		b.say("not attributable: %s", s)
	}
}

// sweepHeadline is the headline of a sweep (rule 9): the same sentence as one point's when
// every point has one status and no gain, else where each status holds with its numbers.
func sweepHeadline(b *spans, rec compare.Record) {
	pts := rec.LoadPoints
	var statuses []model.Status
	for _, p := range pts {
		if !slices.Contains(statuses, p.Status) {
			statuses = append(statuses, p.Status)
		}
	}
	slices.SortFunc(statuses, func(a, b model.Status) int { return slices.Index(model.Statuses, a) - slices.Index(model.Statuses, b) })
	if len(statuses) == 1 && (statuses[0] == model.NotEstablished || statuses[0] == model.Zero) {
		perPointMoves(b, rec)
		if statuses[0] == model.NotEstablished {
			notCounted(b, rec, rec.Causes)
		}
		return
	}
	var tie *lead
	for gi, s := range statuses {
		var at []int
		for i, p := range pts {
			if p.Status == s {
				at = append(at, i)
			}
		}
		if gi > 0 {
			b.plain("; ")
		}
		b.say(statusAtKey[s], where(pts, at))
		b.plain(" (")
		gain := s == model.Established || s == model.Offset
		l, ok := leadGain(pts[at[0]].Deltas)
		if gain && ok {
			var ds []compare.StageDelta
			for _, i := range at {
				ds = append(ds, pts[i].Deltas[l.key])
				if t, ok := leadGain(pts[i].Deltas); ok && tie == nil && t.key == l.key && len(t.ties) > 0 && t.floor {
					tie = &t
				}
			}
			b.change(Say("%s %s", l.short, pctRange(ds)), l.d)
		} else {
			moves := headMoves(pts[at[0]].Deltas)
			for i, m := range moves {
				if i > 0 {
					b.plain(", ")
				}
				b.change(Say("%s %s", m.short, pctRange(deltasAt(pts, at, m.key))), m.d)
			}
			if len(moves) == 0 {
				b.say("no significant change")
			}
		}
		if gi > 0 || !gain {
			var causes []compare.Cause
			for _, i := range at {
				causes = append(causes, pts[i].Causes...)
			}
			if s := causeShorts(rec, causes); len(s) > 0 {
				b.plain(": ")
				b.add(Span{Words: Say("%s", s)})
			}
		}
		b.plain(")")
	}
	if tie != nil {
		tieNote(b, *tie)
	}
}

// perPointMoves lists what moved at each point of a sweep with no gain anywhere: "FP8 faster
// at every point: TTFT −23 %, TPOT −30 % at c=1; −16 % / −20 % at c=64".
func perPointMoves(b *spans, rec compare.Record) {
	pts := rec.LoadPoints
	moves := make([][]move, len(pts))
	var all []move
	var still []int
	for i, p := range pts {
		moves[i] = headMoves(p.Deltas)
		all = append(all, moves[i]...)
		if len(moves[i]) == 0 {
			still = append(still, i)
		}
	}
	if len(all) == 0 {
		b.say("no stage changed significantly at any point")
		return
	}
	every := ""
	if len(still) == 0 {
		every = " at every point"
	}
	if moved := len(pts) - len(still); moved > compare.ListedPoints {
		b.say(directionKey(all, ""), who(rec))
		b.plain(": ")
		stageSpans(b, moves)
		b.plain(" ")
		if len(still) == 0 {
			b.say("at all %d points", moved)
		} else {
			b.say("at %d of %d points", moved, len(pts))
		}
		return
	}
	b.say(directionKey(all, every), who(rec))
	b.plain(": ")
	var prev []string
	first := true
	for i := range pts {
		if len(moves[i]) == 0 {
			continue
		}
		if !first {
			b.plain("; ")
		}
		first = false
		var names []string
		for _, m := range moves[i] {
			names = append(names, m.short)
		}
		short := slices.Equal(names, prev) // the same stages as the point before: numbers only
		for j, m := range moves[i] {
			switch {
			case j > 0 && short:
				b.plain(" / ")
			case j > 0:
				b.plain(", ")
			}
			text := pctShort(m.d.Delta.F())
			if !short {
				text = m.short + " " + text
			}
			b.change(Lit(text), m.d)
		}
		b.plain(" ")
		b.say("at %s", where(pts, []int{i}))
		prev = names
	}
	if len(still) > 0 {
		b.plain("; ")
		b.say("no significant change at %s", where(pts, still))
	}
}

// stageSpans sums up the moves of many points stage by stage, in the order the stages first
// moved: "TTFT −28 to +12 %, TPOT −36 to −20 %", each coloured where all its moves agree.
func stageSpans(b *spans, moves [][]move) {
	var order []move
	per := map[string][]compare.StageDelta{}
	for _, ms := range moves {
		for _, m := range ms {
			if _, ok := per[m.key]; !ok {
				order = append(order, m)
			}
			per[m.key] = append(per[m.key], m.d)
		}
	}
	for j, m := range order {
		if j > 0 {
			b.plain(", ")
		}
		ds := per[m.key]
		tone := ds[0]
		for _, d := range ds {
			if d.Better != tone.Better || d.Worse != tone.Worse {
				tone = compare.StageDelta{} // both ways: no colour
				break
			}
		}
		b.change(Say("%s %s", m.short, pctSpan(ds)), tone)
	}
}

// pctSpan is the least and the greatest of the changes, "−28 to +12 %" (one figure when they
// meet); pctRange orders by size instead, for changes of one direction.
func pctSpan(ds []compare.StageDelta) Words {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, d := range ds {
		if d.Delta.Known() {
			lo, hi = math.Min(lo, d.Delta.F()), math.Max(hi, d.Delta.F())
		}
	}
	if math.IsInf(lo, 0) {
		return Lit("?")
	}
	return pctFromTo(lo, hi)
}

// pctFromTo is "a to b %" ("−28 to +12 %"), or one figure when they read the same.
func pctFromTo(a, b float64) Words {
	if pctNum(a) == pctNum(b) {
		return Lit(pctShort(a))
	}
	return Say("%s to %s", strings.Replace(pctNum(a), "-", "−", 1), pctShort(b))
}

// lead is the stage change a gain rests on.
type lead struct {
	key, short string
	d          compare.StageDelta
	ties       []string // other better stages with the same p
	floor      bool     // and that p is the smallest the runs can give
}

// leadGain is the stage a gain rests on (rule 6): the significantly better stage of one
// stage (prefill or decode) with the smallest p; when several tie on p (5+5 runs give 0.0079
// at best), the largest change.
func leadGain(perf map[string]compare.StageDelta) (lead, bool) {
	var best lead
	found := false
	for _, m := range model.StageGainMetrics() {
		d, ok := perf[m.Key]
		if !ok || !d.Better || !d.Delta.Known() {
			continue
		}
		if !found || d.P.Known() && (!best.d.P.Known() || d.P.F() < best.d.P.F() ||
			samePs(d.P.F(), best.d.P.F()) && math.Abs(d.Delta.F()) > math.Abs(best.d.Delta.F())) {
			best, found = lead{key: m.Key, short: m.Short, d: d}, true
		}
	}
	if !found || !best.d.P.Known() {
		return best, found
	}
	for _, m := range model.StageGainMetrics() {
		d := perf[m.Key]
		if m.Key != best.key && d.Better && d.P.Known() && samePs(d.P.F(), best.d.P.F()) {
			best.ties = append(best.ties, m.Short)
		}
	}
	best.floor = samePs(best.d.P.F(), stats.MinPossibleP(best.d.N[0], best.d.N[1]))
	return best, true
}

func samePs(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }

// tieNote says that stages tie on p and, when it is the floor of the runs, that it is.
func tieNote(b *spans, l lead) {
	if len(l.ties) == 0 {
		return
	}
	names := Lit(strings.Join(append([]string{l.short}, l.ties...), ", "))
	b.plain(" — ")
	if l.floor {
		b.say("%s tie at p%s, the floor for %d+%d runs: the largest change is named", names, P(l.d.P.F()), l.d.N[0], l.d.N[1])
	} else {
		b.say("%s tie at p%s: the largest change is named", names, P(l.d.P.F()))
	}
}

// move is a significant change of a headline stage.
type move struct {
	key, short string
	d          compare.StageDelta
}

// headMoves are the significant changes of the stages a headline names: the first brief metric
// of prefill and of decode (TTFT, TPOT); when neither moved, the largest significant change of
// any stage metric.
func headMoves(perf map[string]compare.StageDelta) []move {
	var out []move
	seen := map[model.Stage]bool{}
	for _, m := range model.BriefMetrics() {
		if m.Stage == model.StageBoth || seen[m.Stage] {
			continue
		}
		seen[m.Stage] = true
		if d, ok := perf[m.Key]; ok && d.Significant && d.Delta.Known() {
			out = append(out, move{m.Key, m.Short, d})
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, m := range model.StageMetrics {
		d, ok := perf[m.Key]
		if ok && d.Significant && d.Delta.Known() && (len(out) == 0 || math.Abs(d.Delta.F()) > math.Abs(out[0].d.Delta.F())) {
			out = []move{{m.Key, m.Short, d}}
		}
	}
	return out
}

// directionKey is the phrase for who moved which way: faster when every change is better,
// slower when every one is worse, else changed.
func directionKey(ms []move, every string) string {
	better, worse := 0, 0
	for _, m := range ms {
		if m.d.Better {
			better++
		}
		if m.d.Worse {
			worse++
		}
	}
	switch {
	case better == len(ms):
		return "%s faster" + every
	case worse == len(ms):
		return "%s slower" + every
	}
	return "%s changed" + every
}

// who names the candidate: its label when the arms' labels differ, else the precision its
// model names when the baseline's names another, else "the candidate".
func who(rec compare.Record) Words {
	if c := rec.Arms.Candidate.Label; c != "" && c != rec.Arms.Baseline.Label && !strings.ContainsAny(c, ",") {
		return Lit(c)
	}
	m := rec.Workload["model_name"]
	if p := model.PrecisionIn(m.Candidate); p != "" && p != model.PrecisionIn(m.Baseline) {
		return Lit(p)
	}
	return Say("the candidate")
}

// statusAtKey words "established at c=1–16" per status.
var statusAtKey = map[model.Status]string{
	model.Established:    "established at %s",
	model.Offset:         "offset at %s",
	model.Zero:           "zero at %s",
	model.NotEstablished: "not established at %s",
}

func deltasAt(pts []compare.LoadPointResult, at []int, key string) []compare.StageDelta {
	var out []compare.StageDelta
	for _, i := range at {
		out = append(out, pts[i].Deltas[key])
	}
	return out
}

// pctShort is a change as a headline names it: one decimal under 10 %, whole above ("−9.5 %",
// "−23 %").
func pctShort(v float64) string {
	return strings.Replace(pctNum(v), "-", "−", 1) + " %"
}

func pctNum(v float64) string {
	if math.Abs(v) < 10 {
		return fmt.Sprintf("%+.1f", v)
	}
	return fmt.Sprintf("%+.0f", v)
}

// pctRange is the changes of several points: "−9.5 %" when they read the same, else
// "−9.5 to −11 %" from the smallest to the largest change.
func pctRange(ds []compare.StageDelta) Words {
	var vs []float64
	for _, d := range ds {
		if d.Delta.Known() {
			vs = append(vs, d.Delta.F())
		}
	}
	if len(vs) == 0 {
		return Lit("?")
	}
	slices.SortFunc(vs, func(a, b float64) int {
		switch {
		case math.Abs(a) < math.Abs(b):
			return -1
		case math.Abs(a) > math.Abs(b):
			return 1
		}
		return 0
	})
	return pctFromTo(vs[0], vs[len(vs)-1])
}

// where names points of a sweep along its load axis, neighbours as ranges: "c=1–16, 64",
// "rate 2–8 req/s", "input 1000–30000 tok"; labels otherwise.
func where(pts []compare.LoadPointResult, at []int) string {
	type axis struct {
		prefix, unit string
		v            func(compare.LoadPointResult) model.Num
	}
	axes := []axis{
		{"c=", "", func(p compare.LoadPointResult) model.Num { return p.MaxConcurrency }},
		{"rate ", " req/s", func(p compare.LoadPointResult) model.Num { return p.RequestRate }},
		{"input ", " tok", func(p compare.LoadPointResult) model.Num { return p.InputLen }},
	}
	for _, a := range axes {
		seen := map[float64]bool{}
		ok := true
		for _, p := range pts {
			n := a.v(p)
			if !n.Known() || seen[n.F()] {
				ok = false
				break
			}
			seen[n.F()] = true
		}
		if !ok {
			continue
		}
		in := map[int]bool{}
		for _, i := range at {
			in[i] = true
		}
		var runs []string
		for i := 0; i < len(pts); i++ {
			if !in[i] {
				continue
			}
			j := i
			for j+1 < len(pts) && in[j+1] {
				j++
			}
			r := model.FormatNum(a.v(pts[i]))
			if j > i {
				r += "–" + model.FormatNum(a.v(pts[j]))
			}
			runs = append(runs, r)
			i = j
		}
		return a.prefix + strings.Join(runs, ", ") + a.unit
	}
	var labels []string
	for _, i := range at {
		labels = append(labels, pts[i].Label)
	}
	return strings.Join(labels, ", ")
}

// sloSpans is the SLO section's attainment change, when the record has one: the headline's
// hook for a verdict in a service owner's terms (rule 14).
func sloSpans(rec compare.Record) ([]Span, bool) {
	if rec.SLO == nil {
		return nil, false
	}
	g, ok := rec.SLO.Gain()
	if !ok {
		return nil, false
	}
	tone := Better
	if !g.Better {
		tone = Worse
	}
	return []Span{{Words: Say("SLO attainment %.0f → %.0f %% at %s, p%s", 100*g.Baseline, 100*g.Candidate, g.Where, P(g.P)), Tone: tone}}, true
}
