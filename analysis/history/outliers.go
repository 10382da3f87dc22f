package history

import (
	"math"
	"slices"
)

// outlierZ is how many robust standard deviations (1.4826 × the median absolute deviation of
// the neighbours) a run must lie from its neighbours' level to be an outlier: far enough that
// noise alone does not give one in many thousand nights.
const outlierZ = 5

// spreadRuns is how many windows each side the neighbours' spread is read from.
const spreadRuns = 4

// outliers are the lone runs out of their level (rule 13): a run that differs from the level
// of the runs before it and from that of the runs after it, by more than the minimum
// magnitude and outlierZ robust deviations, where the runs after it are back at the level
// before (the next run among them). They are taken out before the search, so one bad night
// never reads as two steps. The last run cannot be one: nothing has come back yet.
func outliers(xs []float64, set Settings) []int {
	w := set.Window
	var out []int
	for i := 1; i+1 < len(xs); i++ {
		before := xs[max(0, i-w):i]
		after := xs[i+1 : min(len(xs), i+1+w)]
		lb, la := median(before), median(after)
		if moved(lb, la, set.MinMagnitude) {
			continue // a step, or noise too wide to tell
		}
		level := median(append(slices.Clone(before), after...))
		if !moved(level, xs[i], set.MinMagnitude) {
			continue // at its level: the spread need not be read
		}
		// The spread is read from a wider neighbourhood: ten runs' deviation is itself too
		// noisy to scale a threshold on.
		wide := append(slices.Clone(xs[max(0, i-spreadRuns*w):i]), xs[i+1:min(len(xs), i+1+spreadRuns*w)]...)
		spread := 1.4826 * mad(wide, median(wide))
		far := func(x float64) bool {
			return moved(level, x, set.MinMagnitude) && math.Abs(x-level) > outlierZ*spread
		}
		if far(xs[i]) && !far(xs[i+1]) {
			out = append(out, i)
		}
	}
	return out
}

// mad is the median absolute deviation of xs around m.
func mad(xs []float64, m float64) float64 {
	d := make([]float64, len(xs))
	for i, x := range xs {
		d[i] = math.Abs(x - m)
	}
	return median(d)
}
