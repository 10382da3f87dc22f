package chart

import (
	"math"

	"benchlens/analysis/compare"
	"benchlens/analysis/stats"
	"benchlens/model"
)

// Samples returns an arm's samples of a metric in ms, pooled over its runs, for drawing
// distributions: model.TTFT, model.TPOT and model.E2EL give one value per request, model.ITL
// one per gap between tokens (thinned evenly to at most MaxITLPoints). Failed requests,
// unknown values and each run's declared warm-up requests (workload.warmup_iters, as the
// comparison drops them) are left out. Runs without per-request data add nothing; an unknown
// metric gives nil. The slice comes sorted and is remembered with the arm (Arm.Remember): do
// not change it.
func Samples(a compare.Arm, metric string) []float64 {
	return a.Remember("chart.Samples "+metric, func() any {
		xs := samples(a, metric)
		stats.SortFloats(xs) // distributions ignore order; sorted, the next ECDF's sort is a pass
		return xs
	}).([]float64)
}

func samples(a compare.Arm, metric string) []float64 {
	switch metric {
	case model.ITL:
		xs, _ := itlSamples(a)
		return xs
	case model.TTFT, model.TPOT, model.E2EL:
	default:
		return nil
	}
	var out []float64
	for _, rd := range a.Runs {
		if rd.Run != nil {
			out = append(out, compare.Samples(compare.Measured(rd.Run), metric, nil)...)
		}
	}
	return out
}

// SampleCount is how many values Samples stands for: for model.ITL every gap, before
// thinning; otherwise the length of what Samples returns.
func SampleCount(a compare.Arm, metric string) int {
	if metric == model.ITL {
		return itlTotal(a)
	}
	return len(Samples(a, metric))
}

// itlSamples takes every k-th gap of the successful measured requests, so that at most
// MaxITLPoints remain, without first gathering millions of them; total counts every gap.
func itlSamples(a compare.Arm) (out []float64, total int) {
	total = itlTotal(a)
	n := min(total, MaxITLPoints)
	out = make([]float64, 0, n)
	step := float64(total) / float64(max(n, 1))
	next, k := 0, 0 // k counts finite gaps; next is the index of the next one kept, as stats.Thin spaces them
	for _, rd := range a.Runs {
		if rd.Run == nil {
			continue
		}
		for _, r := range compare.Measured(rd.Run) {
			if !r.OK() {
				continue
			}
			for _, g := range r.ITL {
				if !finite(g) {
					continue
				}
				if k == next && len(out) < n {
					out = append(out, g*1e3)
					next = int(float64(len(out)) * step)
				}
				k++
			}
		}
	}
	return out, total
}

// itlTotal counts the finite gaps of the successful measured requests.
func itlTotal(a compare.Arm) int {
	total := 0
	for _, rd := range a.Runs {
		if rd.Run == nil {
			continue
		}
		for _, r := range compare.Measured(rd.Run) {
			if r.OK() {
				for _, g := range r.ITL {
					if finite(g) {
						total++
					}
				}
			}
		}
	}
	return total
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
