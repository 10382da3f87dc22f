package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// DiffCI gives the interval a plain bootstrap gives, each resample built value by value, its
// median by Percentile, up to the resampling's own noise.
func TestDiffCIIsThePlainBootstrap(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b []float64
	}{
		{"shares of five runs", []float64{0.58, 0.62, 0.6, 0.64, 0.62}, []float64{0.88, 0.92, 0.96, 0.9, 0.94}},
		{"even and odd sizes, ties", []float64{1, 1, 0, 1}, []float64{0, 1, 1, 1, 1, 0, 1}},
		{"one value each", []float64{0.3}, []float64{0.5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const iterations = 20000
			lo, hi := DiffCI(tc.a, tc.b, 0.9, iterations, rand.New(rand.NewPCG(1, 2)))
			rng := rand.New(rand.NewPCG(1, 2))
			ra, rb := make([]float64, len(tc.a)), make([]float64, len(tc.b))
			var diffs []float64
			for range iterations {
				for i := range ra {
					ra[i] = tc.a[rng.IntN(len(tc.a))]
				}
				for i := range rb {
					rb[i] = tc.b[rng.IntN(len(tc.b))]
				}
				diffs = append(diffs, Percentile(rb, 50)-Percentile(ra, 50))
			}
			wlo, whi := Percentile(slices.Clone(diffs), 5), Percentile(diffs, 95)
			if math.Abs(lo-wlo) > 0.01 || math.Abs(hi-whi) > 0.01 {
				t.Errorf("DiffCI [%v, %v], the plain bootstrap [%v, %v]", lo, hi, wlo, whi)
			}
		})
	}
}
