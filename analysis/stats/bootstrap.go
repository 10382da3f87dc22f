package stats

import (
	"math"
	"math/rand/v2"
	"slices"
)

// RatioCI is a percentile-bootstrap confidence interval for the relative change of the median,
// median(b)/median(a) - 1, resampling each sample with replacement. Deterministic for a seed.
// Samples larger than maxN are thinned evenly first, to bound the cost on millions of gaps.
func RatioCI(a, b []float64, level float64, iterations, maxN int, seed uint64) (lo, hi float64) {
	if len(a) == 0 || len(b) == 0 {
		return math.NaN(), math.NaN()
	}
	a, b = Thin(a, maxN), Thin(b, maxN)
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	ra, rb := make([]float64, len(a)), make([]float64, len(b))
	ratios := make([]float64, 0, iterations)
	for range iterations {
		for i := range ra {
			ra[i] = a[rng.IntN(len(a))]
		}
		for i := range rb {
			rb[i] = b[rng.IntN(len(b))]
		}
		ma, mb := Percentile(ra, 50), Percentile(rb, 50)
		if ma != 0 {
			ratios = append(ratios, mb/ma-1)
		}
	}
	if len(ratios) == 0 {
		return math.NaN(), math.NaN()
	}
	alpha := (1 - level) / 2
	return Percentile(slices.Clone(ratios), 100*alpha), Percentile(ratios, 100*(1-alpha))
}

// Thin keeps at most n evenly spaced elements (all when n <= 0).
func Thin(xs []float64, n int) []float64 {
	if n <= 0 || len(xs) <= n {
		return xs
	}
	out := make([]float64, n)
	step := float64(len(xs)) / float64(n)
	for i := range out {
		out[i] = xs[int(float64(i)*step)]
	}
	return out
}

// Median returns the median of xs without reordering it.
func Median(xs []float64) float64 {
	return Percentile(slices.Clone(xs), 50)
}

// TrimmedMedian is the median after dropping the lowest and the highest value (METHOD.md's
// "median with the first and last dropped"); with fewer than 3 values it is the median.
func TrimmedMedian(xs []float64) float64 {
	if len(xs) < 3 {
		return Median(xs)
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return Percentile(s[1:len(s)-1], 50)
}
