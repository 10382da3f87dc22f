package history

import (
	"math"
	"testing"

	"benchlens/model"
)

// A run's value of a stage metric is the statistic its row names: the median with the run's
// spread, a tail statistic alone, the run's own figure, unknown where the run lacks it.
func TestValueOf(t *testing.T) {
	r := model.NewRun("vllm")
	r.SetStat(model.E2EL, "median", 800)
	r.SetStat(model.E2EL, "std", 50)
	r.SetStat(model.E2EL, "p99", 950)
	r.OutputThroughput = 1200
	e2el, _ := model.StageMetricOf(model.E2EL)
	tput, _ := model.StageMetricOf(model.Throughput)
	p99 := model.StageMetric{Key: "e2el_p99", Stage: model.StageBoth, Unit: "ms", Of: model.E2EL, Stat: "p99"}
	p90 := model.StageMetric{Key: "e2el_p90", Stage: model.StageBoth, Unit: "ms", Of: model.E2EL, Stat: "p90"}
	for _, tc := range []struct {
		m                 model.StageMetric
		median, low, high float64
	}{
		{e2el, 800, 750, 850},
		{p99, 950, 950, 950},
		{tput, 1200, 1200, 1200},
		{p90, math.NaN(), math.NaN(), math.NaN()},
	} {
		got := ValueOf(r, tc.m)
		same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
		if !same(got.Median, tc.median) || !same(got.Low, tc.low) || !same(got.High, tc.high) {
			t.Errorf("%s: %+v, want %v [%v, %v]", tc.m.Key, got, tc.median, tc.low, tc.high)
		}
	}
}
