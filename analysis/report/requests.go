package report

import (
	"math"
	"sort"

	"benchlens/analysis/compare"
	"benchlens/analysis/stats"
	"benchlens/model"
)

// The per-request rows and the CDF points of the workbook.

var requestCols = []column{
	{"run", kInt, 8}, {"index", kInt, 8}, {"input_len", kInt, 10}, {"output_len", kInt, 10},
	{"ttft_ms", kMS, 12}, {"tpot_ms", kMS, 12}, {"latency_ms", kMS, 12}, {"error", kText, 40},
}

// requestRow is one request's cells, times in ms.
func requestRow(run int64, i int, q *model.Request) []any {
	lenCell := func(n int) any {
		if n < 0 {
			return nil
		}
		return n
	}
	return []any{run, i, lenCell(q.InputLen), lenCell(q.OutputLen), floatCell(q.TTFT * 1e3),
		floatCell(stats.RequestTPOT(q) * 1e3), floatCell(stats.RequestLatency(q) * 1e3), q.Error}
}

// uniqueRuns lists the entries' runs once each, in order of first appearance.
func uniqueRuns(entries []Entry) []*model.Run {
	seen := map[int64]bool{}
	var out []*model.Run
	for _, e := range entries {
		for _, r := range e.Runs {
			if r != nil && !seen[r.ID] {
				seen[r.ID] = true
				out = append(out, r)
			}
		}
	}
	return out
}

// cdfPoints is the number of quantile points per arm and metric.
const cdfPoints = 100

// armSamples pools an arm's per-request values of a metric in ms: successful requests of
// compare.Measured (the declared warm-up dropped by start time), the very requests the
// verdict and the charts use.
func armSamples(e Entry, ids []int64, metric string) []float64 {
	byID := map[int64]*model.Run{}
	for _, r := range e.Runs {
		if r != nil {
			byID[r.ID] = r
		}
	}
	var out []float64
	for _, id := range ids {
		if r := byID[id]; r != nil {
			out = append(out, compare.Samples(compare.Measured(r), metric, nil)...)
		}
	}
	return out
}

// cdf returns cdfPoints (value, probability) pairs of the samples' empirical distribution,
// at evenly spaced probabilities from 0 to 1 (numpy's linear percentiles); nil without
// samples. It sorts xs.
func cdf(xs []float64) (vals, probs []float64) {
	if len(xs) == 0 {
		return nil, nil
	}
	sort.Float64s(xs)
	vals, probs = make([]float64, cdfPoints), make([]float64, cdfPoints)
	for i := range vals {
		p := float64(i) / float64(cdfPoints-1)
		rank := p * float64(len(xs)-1)
		lo := int(math.Floor(rank))
		v := xs[lo]
		if lo+1 < len(xs) {
			v += (xs[lo+1] - xs[lo]) * (rank - float64(lo))
		}
		vals[i], probs[i] = v, p
	}
	return vals, probs
}
