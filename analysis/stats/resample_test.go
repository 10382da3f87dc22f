package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// A resampler's median has the plain bootstrap median's distribution: for samples small
// enough to list every resample (n^n of them), the medians drawn fall as often on each value
// as the resamples say they should. Ties and even sizes (the median interpolated between two
// order statistics) are among them.
func TestResampledMedianIsTheBootstrapMedian(t *testing.T) {
	for _, xs := range [][]float64{
		{3},
		{1, 2},
		{5, 1, 3},
		{1, 2, 2, 7},
		{0, 1, 1, 1, 9},
		{4, 8, 15, 16, 23, 42},
		{1, 1, 2, 3, 5, 8, 13},
	} {
		exact := map[float64]float64{}
		n := len(xs)
		idx, re := make([]int, n), make([]float64, n)
		total := math.Pow(float64(n), float64(n))
		for {
			for i, j := range idx {
				re[i] = xs[j]
			}
			exact[Percentile(re, 50)] += 1 / total
			i := 0
			for ; i < n; i++ {
				if idx[i]++; idx[i] < n {
					break
				}
				idx[i] = 0
			}
			if i == n {
				break
			}
		}
		const draws = 200000
		drawn := map[float64]float64{}
		r, rng := newResampler(xs), rand.New(rand.NewPCG(1, 2))
		for range draws {
			m := r.median(rng)
			if _, ok := exact[m]; !ok {
				t.Fatalf("%v: drew median %v, which no resample has", xs, m)
			}
			drawn[m] += 1.0 / draws
		}
		// The largest gap between the two distribution functions (Kolmogorov's): 0.006 is
		// twice what 200,000 draws leave at the 1 % level.
		values := make([]float64, 0, len(exact))
		for v := range exact {
			values = append(values, v)
		}
		slices.Sort(values)
		var want, got, worst float64
		for _, v := range values {
			want, got = want+exact[v], got+drawn[v]
			worst = max(worst, math.Abs(want-got))
		}
		if worst > 0.006 {
			t.Errorf("%v: drawn medians' distribution is %.4f from the bootstrap's", xs, worst)
		}
	}
}

// The gamma variates the medians are drawn from have their mean and variance (both the shape).
func TestGammaMoments(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, shape := range []float64{1, 2.5, 50, 2000} {
		const n = 100000
		var sum, sq float64
		for range n {
			x := gamma(rng, shape)
			sum, sq = sum+x, sq+x*x
		}
		mean := sum / n
		variance := sq/n - mean*mean
		if math.Abs(mean-shape) > 4*math.Sqrt(shape/n) || math.Abs(variance/shape-1) > 0.03 {
			t.Errorf("Gamma(%v): mean %.4f, variance %.4f", shape, mean, variance)
		}
	}
}
