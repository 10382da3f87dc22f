package stats

import (
	"cmp"
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
	r1, tieTerm := rankSum(a, b)
	ties := tieTerm > 0
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

// rankSum is the sum of a's mid-ranks among a and b together, and the tie term (Σ t³ − t
// over runs of t equal values) of the variance's correction. The samples are sorted apart
// and walked together: a sort of float64s, not of tagged pairs through an interface (a
// per-request test ranks 40,000 values per point and bucket).
func rankSum(a, b []float64) (r1, tieTerm float64) {
	n1, n2 := len(a), len(b)
	sa, sb := sortedCopy(a), sortedCopy(b)
	for i, j, below := 0, 0, 0; i < n1 || j < n2; {
		v := sb[min(j, n2-1)]
		if j == n2 || i < n1 && cmp.Less(sa[i], v) {
			v = sa[i]
		}
		ca, cb := 0, 0
		for ; i < n1 && cmp.Compare(sa[i], v) == 0; i++ {
			ca++
		}
		for ; j < n2 && cmp.Compare(sb[j], v) == 0; j++ {
			cb++
		}
		t := ca + cb
		r1 += float64(2*below+t+1) / 2 * float64(ca) // ranks below+1 … below+t
		if t > 1 {
			tieTerm += float64(t*t*t - t)
		}
		below += t
	}
	return r1, tieTerm
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
