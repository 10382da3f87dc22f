package slo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"benchlens/analysis/stats"
	"benchlens/model"
)

// Capacity is the load each arm sustains under the SLO (METHOD.md rule 14): the highest load
// of the sweep at which the median attainment over the repeats is at least the target,
// linearly interpolated between that point and the next, where it falls below.
type Capacity struct {
	Axis      string      `json:"axis" yaml:"axis"` // "concurrency" or "request_rate"
	Unit      string      `json:"unit,omitempty" yaml:"unit,omitempty"`
	Baseline  ArmCapacity `json:"baseline" yaml:"baseline"`
	Candidate ArmCapacity `json:"candidate" yaml:"candidate"`
	// Delta is candidate / baseline − 1 in %, with a bootstrap interval over the repeats (the
	// runs of each point resampled); unknown when a capacity lies beyond the sweep.
	Delta  model.Num `json:"delta_pct" yaml:"delta_pct"`
	CILow  model.Num `json:"ci_low_pct" yaml:"ci_low_pct"`
	CIHigh model.Num `json:"ci_high_pct" yaml:"ci_high_pct"`
	Note   string    `json:"note,omitempty" yaml:"note,omitempty"`
}

// ArmCapacity is one arm's capacity and its range over the repeats: the capacity of the
// curve through each point's lowest attainment, and through its highest.
type ArmCapacity struct {
	Value model.Num `json:"value" yaml:"value"`
	Low   model.Num `json:"low" yaml:"low"`
	High  model.Num `json:"high" yaml:"high"`
	// Bound is "above" when attainment meets the target at every point (the capacity is at
	// least the highest load), "below" when at none (it is under the lowest).
	Bound string `json:"bound,omitempty" yaml:"bound,omitempty"`
}

// Text is the capacity for people: "≥ 64", "< 1", "23.5 [19.8, 27.1]".
func (c ArmCapacity) Text() string {
	switch {
	case !c.Value.Known():
		return "-"
	case c.Bound == "above":
		return "≥ " + model.FormatNum(round3(c.Value))
	case c.Bound == "below":
		return "< " + model.FormatNum(round3(c.Value))
	case c.Low.Known() && c.High.Known() && c.Low != c.High:
		return fmt.Sprintf("%s [%s, %s]", model.FormatNum(round3(c.Value)), model.FormatNum(round3(c.Low)), model.FormatNum(round3(c.High)))
	}
	return model.FormatNum(round3(c.Value))
}

func round3(n model.Num) model.Num {
	f := n.F()
	if f == 0 || math.IsInf(f, 0) {
		return n
	}
	scale := math.Pow(10, 2-math.Floor(math.Log10(math.Abs(f))))
	return model.Num(math.Round(f*scale) / scale)
}

// axisOf is the load axis of a sweep: concurrency when every point has its own, else the
// request rate when every point has its own finite one; ok false for anything else.
func axisOf(points []Point) (name, unit string, load func(Point) float64, ok bool) {
	distinct := func(v func(Point) model.Num) bool {
		seen := map[float64]bool{}
		for _, p := range points {
			n := v(p)
			if !n.Known() || math.IsInf(n.F(), 0) || seen[n.F()] {
				return false
			}
			seen[n.F()] = true
		}
		return true
	}
	conc := func(p Point) model.Num { return p.Load.MaxConcurrency }
	rate := func(p Point) model.Num { return p.Load.RequestRate }
	switch {
	case len(points) < 2:
		return "", "", nil, false
	case distinct(conc):
		return "concurrency", "", func(p Point) float64 { return conc(p).F() }, true
	case distinct(rate):
		return "request_rate", "req/s", func(p Point) float64 { return rate(p).F() }, true
	}
	return "", "", nil, false
}

// capacity is the Capacity of a sweep's points, or nil when the points form no load axis.
func capacity(points []Point, inputs []PointInput, set Settings) *Capacity {
	name, unit, load, ok := axisOf(points)
	if !ok {
		return nil
	}
	order := make([]int, len(points))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmpFloat(load(points[a]), load(points[b])) })
	loads := make([]float64, len(order))
	for i, k := range order {
		loads[i] = load(points[k])
	}
	curve := func(side func(Point) ArmPoint, stat func(Spread) model.Num) []float64 {
		out := make([]float64, len(order))
		for i, k := range order {
			out[i] = stat(side(points[k]).Attainment).F()
		}
		return out
	}
	base := func(p Point) ArmPoint { return p.Baseline }
	cand := func(p Point) ArmPoint { return p.Candidate }
	med := func(s Spread) model.Num { return s.Median }
	lo := func(s Spread) model.Num { return s.Min }
	hi := func(s Spread) model.Num { return s.Max }
	armCap := func(side func(Point) ArmPoint) ArmCapacity {
		v, bound := at(loads, curve(side, med), set.Target)
		l, _ := at(loads, curve(side, lo), set.Target)
		h, _ := at(loads, curve(side, hi), set.Target)
		return ArmCapacity{Value: v, Low: l, High: h, Bound: bound}
	}
	c := &Capacity{Axis: name, Unit: unit, Baseline: armCap(base), Candidate: armCap(cand),
		Delta: model.Unknown, CILow: model.Unknown, CIHigh: model.Unknown}
	switch {
	case !c.Baseline.Value.Known() || !c.Candidate.Value.Known():
		c.Note = "a point's attainment is not computable on one side"
		return c
	case c.Baseline.Bound != "" || c.Candidate.Bound != "":
		c.Note = "beyond the sweep: extend it to compare the capacities"
		return c
	}
	c.Delta = model.Num(100 * (c.Candidate.Value.F()/c.Baseline.Value.F() - 1))
	c.CILow, c.CIHigh = capacityCI(loads, order, inputs, set)
	return c
}

// at is the capacity of one attainment curve (loads ascending): the highest load at which
// attainment is at least the target, interpolated towards the next point; bound says when it
// lies beyond the sweep.
func at(loads, att []float64, target float64) (model.Num, string) {
	k := -1
	for i, a := range att {
		if math.IsNaN(a) {
			return model.Unknown, ""
		}
		if a >= target {
			k = i
		}
	}
	switch {
	case k < 0:
		return model.Num(loads[0]), "below"
	case k == len(att)-1:
		return model.Num(loads[k]), "above"
	}
	f := (att[k] - target) / (att[k] - att[k+1])
	return model.Num(loads[k] + f*(loads[k+1]-loads[k])), ""
}

// capacityCI is the percentile-bootstrap interval of the capacity change in %: each point's
// runs resampled with replacement on each side, capacities of the resampled medians; a
// resample whose capacity lies beyond the sweep counts at its bound.
func capacityCI(loads []float64, order []int, inputs []PointInput, set Settings) (model.Num, model.Num) {
	rng := rand.New(rand.NewPCG(1, 0x9e3779b97f4a7c15))
	att := func(r RunResult) model.Num { return r.Attainment }
	sample := func(side func(PointInput) []RunResult) []float64 {
		out := make([]float64, len(order))
		for i, k := range order {
			xs := values(side(inputs[k]), att)
			if len(xs) == 0 {
				out[i] = math.NaN()
				continue
			}
			re := make([]float64, len(xs))
			for j := range re {
				re[j] = xs[rng.IntN(len(xs))]
			}
			out[i] = stats.Median(re)
		}
		return out
	}
	base := func(p PointInput) []RunResult { return p.Baseline }
	cand := func(p PointInput) []RunResult { return p.Candidate }
	var ratios []float64
	for range max(set.Bootstrap, 1) {
		b, _ := at(loads, sample(base), set.Target)
		c, _ := at(loads, sample(cand), set.Target)
		if b.Known() && c.Known() && b.F() > 0 {
			ratios = append(ratios, c.F()/b.F()-1)
		}
	}
	if len(ratios) == 0 {
		return model.Unknown, model.Unknown
	}
	alpha := (1 - set.Confidence) / 2
	return model.Num(100 * stats.Percentile(slices.Clone(ratios), 100*alpha)), model.Num(100 * stats.Percentile(ratios, 100*(1-alpha)))
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
