package stats

import (
	"cmp"
	"math"
	"math/bits"
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
	src := rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)
	ra, rb := newResampler(a), newResampler(b)
	ratios := make([]float64, 0, iterations)
	for range iterations {
		ma, mb := ra.medianPCG(src), rb.medianPCG(src)
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

// DiffCI is a percentile-bootstrap interval of median(b) − median(a) over iterations
// resamples (at least one), each side drawn with replacement from rng, a before b: a change of
// a share reads in points. The medians are taken as RatioCI takes them, without sorting each
// resample, and are the floats Percentile gives of the same draws.
func DiffCI(a, b []float64, level float64, iterations int, rng *rand.Rand) (lo, hi float64) {
	if len(a) == 0 || len(b) == 0 {
		return math.NaN(), math.NaN()
	}
	ra, rb := newResampler(a), newResampler(b)
	diffs := make([]float64, 0, max(iterations, 1))
	for range max(iterations, 1) {
		ma := ra.median(rng)
		diffs = append(diffs, rb.median(rng)-ma)
	}
	alpha := (1 - level) / 2
	return Percentile(slices.Clone(diffs), 100*alpha), Percentile(diffs, 100*(1-alpha))
}

// resampler draws a sample's bootstrap resamples and takes their medians without sorting or
// selecting: the sample is sorted once, a draw counts the rank it picked, and the median's
// order statistics are read off the counts. Each draw takes the same random numbers, and each
// median is the same float, as Percentile of the resampled values.
type resampler struct {
	sorted []float64
	rank   []int32 // rank[i]: the position of the sample's value i in sorted
	count  []int32
}

func newResampler(xs []float64) *resampler {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(i, j int) int { return cmp.Compare(xs[i], xs[j]) })
	r := &resampler{sorted: make([]float64, len(xs)), rank: make([]int32, len(xs)), count: make([]int32, len(xs))}
	for pos, i := range idx {
		r.sorted[pos], r.rank[i] = xs[i], int32(pos)
	}
	return r
}

// median draws one resample of the sample's size and returns its median (Percentile's 50th).
func (r *resampler) median(rng *rand.Rand) float64 {
	n := len(r.sorted)
	clear(r.count)
	for range n {
		r.count[r.rank[rng.IntN(n)]]++
	}
	return r.countedMedian()
}

// medianPCG is median drawing from a PCG itself: the same draws rand.New(src).IntN makes,
// without an interface call per draw (a thousand-run arm's interval is millions of draws).
func (r *resampler) medianPCG(src *rand.PCG) float64 {
	n := uint64(len(r.sorted))
	clear(r.count)
	for range n {
		r.count[r.rank[uintN(src, n)]]++
	}
	return r.countedMedian()
}

// uintN is math/rand/v2's Rand.IntN on 64-bit machines (Lemire's multiply, the same
// rejections), for n > 0.
func uintN(src *rand.PCG, n uint64) uint64 {
	if n&(n-1) == 0 {
		return src.Uint64() & (n - 1)
	}
	hi, lo := bits.Mul64(src.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(src.Uint64(), n)
		}
	}
	return hi
}

// countedMedian is the median of the resample the counts hold: the running count is summed
// without a branch on empty positions (a third of them, at random, mispredicted), the order
// statistic's position found when the sum first passes its rank.
func (r *resampler) countedMedian() float64 {
	n := len(r.sorted)
	lo, frac := rankOf(n, 50)
	seen, pos := 0, 0
	for ; ; pos++ { // the counts sum to n > lo
		if seen += int(r.count[pos]); seen > lo {
			break
		}
	}
	a := r.sorted[pos]
	if frac == 0 || lo+1 >= n {
		return a
	}
	b := a
	if seen <= lo+1 { // the next order statistic is the next drawn value
		for pos++; r.count[pos] == 0; pos++ {
		}
		b = r.sorted[pos]
	}
	return a + (b-a)*frac
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
