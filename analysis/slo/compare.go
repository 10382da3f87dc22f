package slo

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"benchlens/analysis/stats"
	"benchlens/model"
)

// Settings are the comparison settings the SLO section uses (compare.Settings' values).
type Settings struct {
	Target     float64 // attainment a load must keep to count for capacity (0.9)
	Alpha      float64 // significance of the Mann-Whitney U test across runs
	NoiseFloor float64 // smallest change that counts: a share of the level, or percentage points / 100
	Confidence float64 // level of the bootstrap intervals
	Bootstrap  int     // bootstrap resamples
}

// Section is the record's "slo": each arm's attainment and goodput per load point with their
// change, the capacity under the SLO of a sweep and the Pareto frontier.
type Section struct {
	Objective string    `json:"objective" yaml:"objective"` // "ttft<=100,tpot<=15"
	Target    float64   `json:"target" yaml:"target"`
	Points    []Point   `json:"points" yaml:"points"`
	Binding   string    `json:"binding,omitempty" yaml:"binding,omitempty"` // the limit most requests fail, over every point
	Capacity  *Capacity `json:"capacity,omitempty" yaml:"capacity,omitempty"`
	Pareto    *Pareto   `json:"pareto,omitempty" yaml:"pareto,omitempty"`
	Shares    ArmShares `json:"shares" yaml:"shares"` // each arm's share of requests failed and over each limit, over every point
	Notes     []string  `json:"notes,omitempty" yaml:"notes,omitempty"`
}

// ArmShares are the shares of judged requests failed ("failed") and over each limit per arm.
type ArmShares struct {
	Baseline  map[string]float64 `json:"baseline,omitempty" yaml:"baseline,omitempty"`
	Candidate map[string]float64 `json:"candidate,omitempty" yaml:"candidate,omitempty"`
}

// PointInput is one matched load point's runs of each arm, judged.
type PointInput struct {
	Label     string
	Point     model.LoadPoint
	Baseline  []RunResult
	Candidate []RunResult
}

// Point is one load point under the SLO.
type Point struct {
	Label      string          `json:"label" yaml:"label"`
	Load       model.LoadPoint `json:"load" yaml:"load"`
	Baseline   ArmPoint        `json:"baseline" yaml:"baseline"`
	Candidate  ArmPoint        `json:"candidate" yaml:"candidate"`
	Attainment Delta           `json:"attainment_delta" yaml:"attainment_delta"` // percentage points
	Goodput    Delta           `json:"goodput_delta" yaml:"goodput_delta"`       // %
}

// Saturated reports whether either arm is saturated at the point.
func (p Point) Saturated() bool { return p.Baseline.Saturated || p.Candidate.Saturated }

// ArmPoint is one arm's runs at a point: the median over the repeats and their range.
type ArmPoint struct {
	Attainment Spread      `json:"attainment" yaml:"attainment"` // 0-1
	Goodput    Spread      `json:"goodput" yaml:"goodput"`       // req/s
	PerGPU     Spread      `json:"output_tok_s_per_gpu" yaml:"output_tok_s_per_gpu"`
	PerUser    Spread      `json:"output_tok_s_per_user" yaml:"output_tok_s_per_user"`
	From       string      `json:"from,omitempty" yaml:"from,omitempty"`                     // requests, tool: …, or both
	Missing    string      `json:"not_computable,omitempty" yaml:"not_computable,omitempty"` // why some or all runs are not computable
	Saturated  bool        `json:"saturated" yaml:"saturated"`
	Saturation []string    `json:"saturation,omitempty" yaml:"saturation,omitempty"` // why, run by run
	Runs       []RunResult `json:"runs" yaml:"runs"`
}

// Spread is the median of per-run values and their lowest and highest.
type Spread struct {
	Median model.Num `json:"median" yaml:"median"`
	Min    model.Num `json:"min" yaml:"min"`
	Max    model.Num `json:"max" yaml:"max"`
}

// Delta is the change of attainment or goodput between the arms at a point, tested as rule 2
// tests a stage: Mann-Whitney U across the runs' values (request by request, pass or miss,
// with one run per arm), significant when p < alpha and the change is at least the noise
// floor; "~" otherwise.
type Delta struct {
	Unit        string    `json:"unit" yaml:"unit"`   // "pp" (attainment, percentage points) or "%" (goodput)
	Delta       model.Num `json:"delta" yaml:"delta"` // candidate − baseline
	CILow       model.Num `json:"ci_low" yaml:"ci_low"`
	CIHigh      model.Num `json:"ci_high" yaml:"ci_high"`
	P           model.Num `json:"p" yaml:"p"`
	N           [2]int    `json:"n" yaml:"n"`
	PerRequest  bool      `json:"per_request,omitempty" yaml:"per_request,omitempty"`
	Significant bool      `json:"significant" yaml:"significant"`
	Better      bool      `json:"better" yaml:"better"`
	Worse       bool      `json:"worse" yaml:"worse"`
}

// Compare builds the SLO section from the matched load points, in load order.
func Compare(s model.SLO, points []PointInput, set Settings) Section {
	sec := Section{Objective: s.String(), Target: set.Target, Points: make([]Point, len(points))}
	var allB, allC []RunResult
	// The deltas' bootstraps are most of the section's cost with arms of many runs: each on a
	// core of its own (each has its own seeded generator, so the figures do not depend on it).
	var wg sync.WaitGroup
	for i, in := range points {
		p := &sec.Points[i]
		*p = Point{Label: in.Label, Load: in.Point, Baseline: armPoint(in.Baseline), Candidate: armPoint(in.Candidate)}
		wg.Add(2)
		go func() { defer wg.Done(); p.Attainment = attainmentDelta(in.Baseline, in.Candidate, set) }()
		go func() { defer wg.Done(); p.Goodput = goodputDelta(in.Baseline, in.Candidate, set) }()
		allB, allC = append(allB, in.Baseline...), append(allC, in.Candidate...)
	}
	wg.Wait()
	sec.Shares = ArmShares{pooledShares(allB, s), pooledShares(allC, s)}
	sec.Binding = binding(sec.Shares, s)
	sec.Capacity = capacity(sec.Points, points, set)
	sec.Pareto = pareto(sec.Points)
	sec.Notes = notes(sec)
	return sec
}

func armPoint(runs []RunResult) ArmPoint {
	a := ArmPoint{Runs: runs}
	a.Attainment = spread(runs, func(r RunResult) model.Num { return r.Attainment })
	a.Goodput = spread(runs, func(r RunResult) model.Num { return r.Goodput })
	a.PerGPU = spread(runs, func(r RunResult) model.Num { return r.PerGPU })
	a.PerUser = spread(runs, func(r RunResult) model.Num { return r.PerUser })
	froms, whys := map[string]bool{}, map[string]bool{}
	for _, r := range runs {
		if r.Computable() {
			froms[r.From] = true
		} else {
			whys[r.Why] = true
		}
	}
	a.From = strings.Join(slices.Sorted(maps.Keys(froms)), "; ")
	if len(whys) > 0 {
		a.Missing = strings.Join(slices.Sorted(maps.Keys(whys)), "; ")
		if len(froms) > 0 {
			a.Missing = fmt.Sprintf("%d of %d runs not computable: %s", countNot(runs), len(runs), a.Missing)
		}
	}
	a.Saturated, a.Saturation = saturatedPoint(runs)
	return a
}

func countNot(runs []RunResult) int {
	n := 0
	for _, r := range runs {
		if !r.Computable() {
			n++
		}
	}
	return n
}

func values(runs []RunResult, v func(RunResult) model.Num) []float64 {
	var xs []float64
	for _, r := range runs {
		if x := v(r); x.Known() && !math.IsInf(x.F(), 0) {
			xs = append(xs, x.F())
		}
	}
	return xs
}

func spread(runs []RunResult, v func(RunResult) model.Num) Spread {
	xs := values(runs, v)
	if len(xs) == 0 {
		return Spread{model.Unknown, model.Unknown, model.Unknown}
	}
	return Spread{model.Num(stats.Median(xs)), model.Num(slices.Min(xs)), model.Num(slices.Max(xs))}
}

func newDelta(unit string) Delta {
	return Delta{Unit: unit, Delta: model.Unknown, CILow: model.Unknown, CIHigh: model.Unknown, P: model.Unknown}
}

// attainmentDelta compares the arms' attainment in percentage points.
func attainmentDelta(base, cand []RunResult, set Settings) Delta {
	d := newDelta("pp")
	att := func(r RunResult) model.Num { return r.Attainment }
	a, b := values(base, att), values(cand, att)
	if len(a) == 0 || len(b) == 0 {
		return d
	}
	d.N = [2]int{len(a), len(b)}
	d.Delta = model.Num(100 * (stats.Median(b) - stats.Median(a)))
	if len(a) >= 2 && len(b) >= 2 {
		d.P = model.Num(stats.MannWhitney(a, b))
		lo, hi := diffCI(a, b, set.Confidence, set.Bootstrap)
		d.CILow, d.CIHigh = model.Num(100*lo), model.Num(100*hi)
	} else if pa, pb, ok := passes(base, cand); ok {
		// One run per arm: each request a pass (1) or a miss (0); the interval is the normal
		// approximation of a difference of two proportions.
		d.PerRequest, d.N = true, [2]int{len(pa), len(pb)}
		d.P = model.Num(stats.MannWhitney(pa, pb))
		ma, mb := mean(pa), mean(pb)
		se := math.Sqrt(ma*(1-ma)/float64(len(pa)) + mb*(1-mb)/float64(len(pb)))
		z := stats.NormalQuantile(1 - (1-set.Confidence)/2)
		d.Delta = model.Num(100 * (mb - ma))
		d.CILow, d.CIHigh = model.Num(100*(mb-ma-z*se)), model.Num(100*(mb-ma+z*se))
	}
	judge(&d, d.Delta.F()/100, true, set)
	return d
}

// passes are the requests of the arms' single runs as 1 (met the SLO) or 0.
func passes(base, cand []RunResult) ([]float64, []float64, bool) {
	one := func(runs []RunResult) []float64 {
		if len(runs) != 1 || runs[0].From != "requests" || runs[0].Requests == 0 {
			return nil
		}
		xs := make([]float64, runs[0].Requests)
		for i := range runs[0].Good {
			xs[i] = 1
		}
		return xs
	}
	a, b := one(base), one(cand)
	return a, b, a != nil && b != nil
}

func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// goodputDelta compares the arms' goodput, relative to the baseline.
func goodputDelta(base, cand []RunResult, set Settings) Delta {
	d := newDelta("%")
	gp := func(r RunResult) model.Num { return r.Goodput }
	a, b := values(base, gp), values(cand, gp)
	if len(a) == 0 || len(b) == 0 {
		return d
	}
	d.N = [2]int{len(a), len(b)}
	ma, mb := stats.Median(a), stats.Median(b)
	if ma == 0 {
		return d
	}
	d.Delta = model.Num(100 * (mb/ma - 1))
	if len(a) >= 2 && len(b) >= 2 {
		d.P = model.Num(stats.MannWhitney(a, b))
		lo, hi := stats.RatioCI(a, b, set.Confidence, set.Bootstrap, 0, 1)
		d.CILow, d.CIHigh = model.Num(100*lo), model.Num(100*hi)
	}
	judge(&d, mb/ma-1, true, set)
	return d
}

// judge marks a delta significant, better or worse (rel: the change as a fraction).
func judge(d *Delta, rel float64, higherBetter bool, set Settings) {
	if !d.P.Known() || math.IsNaN(rel) {
		return
	}
	d.Significant = d.P.F() < set.Alpha && math.Abs(rel) >= set.NoiseFloor
	up := rel > 0
	d.Better = d.Significant && up == higherBetter
	d.Worse = d.Significant && up != higherBetter
}

// pooledShares are the shares of an arm's judged requests that failed or were over each limit.
func pooledShares(runs []RunResult, s model.SLO) map[string]float64 {
	var total int
	counts := map[string]int{}
	for _, r := range runs {
		if r.From != "requests" {
			continue
		}
		total += r.Requests
		counts["failed"] += r.Failed
		for _, l := range s {
			counts[l.Metric] += r.Over[l.Metric]
		}
	}
	if total == 0 {
		return nil
	}
	out := map[string]float64{}
	for k, n := range counts {
		out[k] = float64(n) / float64(total)
	}
	return out
}

// binding names the limit the most requests fail, with each arm's shares:
// "TTFT binds: over TTFT 38 % → 12 %, over TPOT 4 % → 3 %, failed 0 % → 0 %".
func binding(sh ArmShares, s model.SLO) string {
	if sh.Baseline == nil && sh.Candidate == nil {
		return ""
	}
	worst, share := "", -1.0
	for _, l := range s {
		v := math.Max(sh.Baseline[l.Metric], sh.Candidate[l.Metric])
		if v > share {
			worst, share = l.Metric, v
		}
	}
	if f := math.Max(sh.Baseline["failed"], sh.Candidate["failed"]); f > share {
		worst, share = "failed", f
	}
	var parts []string
	for _, l := range s {
		parts = append(parts, fmt.Sprintf("over %s %s → %s", strings.ToUpper(l.Metric), pctOf(sh.Baseline, l.Metric), pctOf(sh.Candidate, l.Metric)))
	}
	parts = append(parts, fmt.Sprintf("failed %s → %s", pctOf(sh.Baseline, "failed"), pctOf(sh.Candidate, "failed")))
	switch {
	case share <= 0:
		return "no limit binds: every request meets the SLO (" + strings.Join(parts, ", ") + ")"
	case worst == "failed":
		return "failed requests bind: " + strings.Join(parts, ", ")
	}
	return strings.ToUpper(worst) + " binds: " + strings.Join(parts, ", ")
}

func pctOf(m map[string]float64, k string) string {
	if m == nil {
		return "?"
	}
	return fmt.Sprintf("%.0f %%", 100*m[k])
}

// notes says what a reader must know of the section: points not computable, saturation.
func notes(sec Section) []string {
	var out []string
	for _, p := range sec.Points {
		for _, side := range []struct {
			name string
			a    ArmPoint
		}{{"baseline", p.Baseline}, {"candidate", p.Candidate}} {
			if side.a.Missing != "" {
				out = append(out, fmt.Sprintf("%s at %s: not computable (%s)", side.name, p.Label, side.a.Missing))
			}
		}
	}
	var gains, saturated []string
	for _, p := range sec.Points {
		if p.Attainment.Better || p.Goodput.Better {
			gains = append(gains, p.Label)
			if p.Saturated() {
				saturated = append(saturated, p.Label)
			}
		}
	}
	if len(gains) > 0 && len(saturated) == len(gains) {
		out = append(out, "the SLO gain is measured only at saturated points ("+strings.Join(saturated, ", ")+"): queueing, not the change alone, may explain it")
	}
	return out
}

// diffCI is a percentile-bootstrap interval of median(b) − median(a) over the runs' values,
// each side resampled with replacement (deterministic), as stats.RatioCI is for ratios: a
// change of a share reads in percentage points.
func diffCI(a, b []float64, level float64, iterations int) (lo, hi float64) {
	return stats.DiffCI(a, b, level, iterations, rand.New(rand.NewPCG(1, 0x9e3779b97f4a7c15)))
}
