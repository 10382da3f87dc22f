package stats

import (
	"math"
	"sort"
)

// MannWhitney compares two samples with the Mann-Whitney U test and returns the two-sided
// p-value. Small samples without ties get the exact distribution of U (as benchstat does);
// otherwise the normal approximation with tie correction and continuity correction.
// Either sample empty gives p = 1.
func MannWhitney(a, b []float64) float64 {
	n1, n2 := len(a), len(b)
	if n1 == 0 || n2 == 0 {
		return 1
	}
	type obs struct {
		v     float64
		first bool
	}
	all := make([]obs, 0, n1+n2)
	for _, v := range a {
		all = append(all, obs{v, true})
	}
	for _, v := range b {
		all = append(all, obs{v, false})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].v < all[j].v })
	// Mid-ranks for ties; tie term for the variance correction.
	var r1, tieTerm float64
	ties := false
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].v == all[i].v {
			j++
		}
		rank := float64(i+j+1) / 2 // ranks i+1 … j
		for k := i; k < j; k++ {
			if all[k].first {
				r1 += rank
			}
		}
		if t := float64(j - i); t > 1 {
			ties = true
			tieTerm += t*t*t - t
		}
		i = j
	}
	u1 := r1 - float64(n1*(n1+1))/2
	u := math.Min(u1, float64(n1*n2)-u1)
	if !ties && n1+n2 <= 50 {
		return exactP(n1, n2, u)
	}
	n := float64(n1 + n2)
	mean := float64(n1*n2) / 2
	variance := float64(n1*n2) / 12 * ((n + 1) - tieTerm/(n*(n-1)))
	if variance <= 0 {
		return 1
	}
	z := (math.Abs(u-mean) - 0.5) / math.Sqrt(variance)
	if z < 0 {
		z = 0
	}
	return math.Min(1, math.Erfc(z/math.Sqrt2))
}

// exactP is the two-sided p-value of the smaller U statistic u under H0, from the exact
// distribution (counts of rank arrangements, by the standard recurrence).
func exactP(n1, n2 int, u float64) float64 {
	// f[m][k][s]: arrangements of m and k items with U = s; computed row by row.
	maxU := n1 * n2
	prev := make([][]float64, n2+1) // prev[k][s] for m-1
	for k := range prev {
		prev[k] = make([]float64, maxU+1)
		prev[k][0] = 1 // m = 0: U = 0 in exactly one way
	}
	for m := 1; m <= n1; m++ {
		cur := make([][]float64, n2+1)
		cur[0] = make([]float64, maxU+1)
		cur[0][0] = 1
		for k := 1; k <= n2; k++ {
			cur[k] = make([]float64, maxU+1)
			for s := 0; s <= m*k; s++ {
				// The largest item belongs to the first sample (adds k to U) or to the second.
				if s >= k {
					cur[k][s] += prev[k][s-k]
				}
				cur[k][s] += cur[k-1][s]
			}
		}
		prev = cur
	}
	dist := prev[n2]
	var total, tail float64
	for s, c := range dist {
		total += c
		if float64(s) <= u+1e-9 {
			tail += c
		}
	}
	return math.Min(1, 2*tail/total)
}

// MinPossibleP is the smallest two-sided p the exact test can give for samples of n1 and n2:
// 2 / C(n1+n2, n1). With 2 runs per arm it is 0.33: no difference can be significant.
func MinPossibleP(n1, n2 int) float64 {
	if n1 == 0 || n2 == 0 {
		return 1
	}
	c := 1.0
	for i := 1; i <= n1; i++ {
		c = c * float64(n2+i) / float64(i)
	}
	return math.Min(1, 2/c)
}

// Holm adjusts p-values for multiple comparisons (Holm-Bonferroni), in the input order.
func Holm(ps []float64) []float64 {
	idx := make([]int, len(ps))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return ps[idx[a]] < ps[idx[b]] })
	out := make([]float64, len(ps))
	running := 0.0
	for rank, i := range idx {
		adj := math.Min(1, float64(len(ps)-rank)*ps[i])
		running = math.Max(running, adj)
		out[i] = running
	}
	return out
}
