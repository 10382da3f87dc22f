package stats

import (
	"math"
	"math/rand/v2"
	"slices"
)

// RatioCI is a percentile-bootstrap confidence interval for the relative change of the median,
// median(b)/median(a) - 1, resampling each sample with replacement. Deterministic for a seed.
// Samples larger than maxN are thinned evenly first: millions of gaps are not independent
// draws, and an interval from thousands is as tight as the method claims.
func RatioCI(a, b []float64, level float64, iterations, maxN int, seed uint64) (lo, hi float64) {
	if len(a) == 0 || len(b) == 0 {
		return math.NaN(), math.NaN()
	}
	a, b = Thin(a, maxN), Thin(b, maxN)
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	ra, rb := newResampler(a), newResampler(b)
	ratios := make([]float64, 0, iterations)
	for range iterations {
		ma, mb := ra.median(rng), rb.median(rng)
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
// resamples (at least one), each side drawn with replacement from rng: a change of a share
// reads in points. The medians are drawn as RatioCI draws them.
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

// resampler draws the medians of a sample's bootstrap resamples without drawing the
// resamples. A resample of n values drawn with replacement is n positions of the sorted
// sample drawn uniformly; position ⌈n·u⌉ of a uniform u is such a draw, and ⌈n·u⌉ keeps
// order, so the resample's k-th smallest is at ⌈n·U₍ₖ₎⌉ where U₍ₖ₎ is the k-th smallest of n
// uniforms: a Beta(k, n−k+1) variate. The next order statistic, which the median of an even
// resample interpolates to, is the least of the n−k uniforms above U₍ₖ₎. So each median costs
// three variates, not n draws and a count (4,000 gaps a point per interval, times a thousand
// resamples, per point and bucket, made a 36-point sweep take seconds), and has exactly the
// plain bootstrap's distribution (TestResampledMedianIsTheBootstrapMedian).
type resampler struct {
	sorted []float64
	k      int     // the median's lower order statistic, from 1
	frac   float64 // how far the median lies towards the next one (Percentile's rank)
}

func newResampler(xs []float64) *resampler {
	sorted := sortedCopy(xs)
	lo, frac := rankOf(len(sorted), 50)
	return &resampler{sorted: sorted, k: lo + 1, frac: frac}
}

// median draws one resample's median (Percentile's 50th of it).
func (r *resampler) median(rng *rand.Rand) float64 {
	n := len(r.sorted)
	x := gamma(rng, float64(r.k))
	u := x / (x + gamma(rng, float64(n-r.k+1)))
	a := r.sorted[r.position(u)]
	if r.frac == 0 || r.k >= n {
		return a
	}
	// The least of m uniforms on (u, 1) lies 1 − V^(1/m) of the way there, V uniform on (0, 1].
	m := float64(n - r.k)
	next := u + (1-u)*-math.Expm1(math.Log(1-rng.Float64())/m)
	b := r.sorted[r.position(next)]
	return a + (b-a)*r.frac
}

// position is the sorted sample's index ⌈n·u⌉ − 1 a uniform u draws.
func (r *resampler) position(u float64) int {
	n := len(r.sorted)
	return min(max(int(math.Ceil(float64(n)*u))-1, 0), n-1)
}

// gamma draws a Gamma(shape, 1) variate for shape ≥ 1 (Marsaglia and Tsang, 2000).
func gamma(rng *rand.Rand, shape float64) float64 {
	d := shape - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := rng.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
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
