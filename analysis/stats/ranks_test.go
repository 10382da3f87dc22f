package stats

import (
	"math/rand/v2"
	"sort"
	"testing"
)

// rankSumByPairs is the rank sum of a and the tie term as MannWhitney first computed them:
// both samples as tagged pairs, sorted together, mid-ranks read off each run of equal values.
func rankSumByPairs(a, b []float64) (r1, tieTerm float64) {
	type obs struct {
		v     float64
		first bool
	}
	var all []obs
	for _, v := range a {
		all = append(all, obs{v, true})
	}
	for _, v := range b {
		all = append(all, obs{v, false})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].v < all[j].v })
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].v == all[i].v {
			j++
		}
		for k := i; k < j; k++ {
			if all[k].first {
				r1 += float64(i+j+1) / 2
			}
		}
		if t := float64(j - i); t > 1 {
			tieTerm += t*t*t - t
		}
		i = j
	}
	return r1, tieTerm
}

// The two sorted samples walked together rank as the pairs sorted together did: the same
// rank sum and tie term, so the same p-value bit for bit, with ties within and across the
// samples, at either end, and with one sample's values all below the other's.
func TestRankSumAsByPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	draw := func(n, levels int, shift float64) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			if levels > 0 {
				xs[i] = shift + float64(rng.IntN(levels))
			} else {
				xs[i] = shift + rng.NormFloat64()
			}
		}
		return xs
	}
	for _, tc := range []struct {
		n1, n2, levels int
		shift          float64
	}{
		{1, 1, 0, 0}, {1, 1, 1, 0}, {3, 5, 2, 0}, {7, 3, 0, 0.5}, {20, 20, 0, 100},
		{40, 31, 4, 1}, {500, 700, 0, 0.1}, {2000, 1500, 30, 2}, {100, 100, 1, 0},
	} {
		a, b := draw(tc.n1, tc.levels, 0), draw(tc.n2, tc.levels, tc.shift)
		r1, tie := rankSum(a, b)
		wr1, wtie := rankSumByPairs(a, b)
		if r1 != wr1 || tie != wtie {
			t.Errorf("%+v: rank sum %v, tie term %v; by pairs %v, %v", tc, r1, tie, wr1, wtie)
		}
	}
}

func BenchmarkMannWhitney20000(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	x, y := make([]float64, 20000), make([]float64, 20000)
	for i := range x {
		x[i], y[i] = float64(rng.IntN(5000))/100, float64(rng.IntN(5000))/100+1
	}
	for b.Loop() {
		MannWhitney(x, y)
	}
}
