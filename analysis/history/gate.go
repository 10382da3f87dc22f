package history

import (
	"math"

	"benchlens/analysis/compare"
	"benchlens/model"
)

// Regression is a stage metric significantly worse in a comparison, at one load point ("" when
// the arms ran one point).
type Regression struct {
	Stage     string  `json:"stage"`
	LoadPoint string  `json:"load_point,omitempty"`
	DeltaPct  float64 `json:"delta_pct"`
	P         float64 `json:"p"`
	Over      bool    `json:"over"` // worse by more than the gate's threshold: it fails
}

// GateResult is a gate's answer: a candidate fails when a stage is significantly worse (rule
// 2's test, in the metric's bad direction) by more than MaxRegression percent.
type GateResult struct {
	Fail          bool         `json:"fail"`
	MaxRegression float64      `json:"max_regression_pct"`
	Regressions   []Regression `json:"regressions"`
}

// Gate judges a comparison of a baseline with a candidate for a CI gate: every significantly
// worse stage metric, per load point when the arms ran several, and whether any is worse by
// more than maxRegression percent.
func Gate(rec compare.Record, maxRegression float64) GateResult {
	res := GateResult{MaxRegression: maxRegression, Regressions: []Regression{}}
	add := func(point string, perf map[string]compare.StageDelta) {
		for _, m := range model.StageMetrics {
			d, ok := perf[m.Key]
			if !ok || !d.Worse || !d.Delta.Known() {
				continue
			}
			r := Regression{Stage: m.Key, LoadPoint: point, DeltaPct: d.Delta.F(), P: d.P.F()}
			r.Over = math.Abs(r.DeltaPct) > maxRegression
			res.Fail = res.Fail || r.Over
			res.Regressions = append(res.Regressions, r)
		}
	}
	if len(rec.LoadPoints) == 0 {
		add("", rec.Perf)
	}
	for _, p := range rec.LoadPoints {
		add(p.Label, p.Deltas)
	}
	return res
}
