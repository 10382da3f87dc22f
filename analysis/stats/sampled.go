package stats

import (
	"cmp"
	"math"
	"slices"
)

// sampledAbove is the fewest samples Percentiles selects within bounds taken from a sample of
// them (percentilesSampled) rather than over all of them.
const sampledAbove = 1 << 16

// sampleSize is how many of the samples percentilesSampled sorts to bound the order
// statistics wanted; sampleSlack is how many sample positions either side of a rank's own
// its bounds lie. A rank's position in the sample strays from its own by sqrt(sampleSize)/2 =
// 64 at most (one standard deviation), so bounds six of them away miss it about once in 500
// million on samples in random order (then the whole is selected); they hold about 5 % of
// the samples between them.
const (
	sampleSize  = 1 << 14
	sampleSlack = 384
)

// maxSpans is the most separate spans of values the order statistics wanted lie in that
// percentilesSampled takes (the pass over the values compares each with every bound); more
// are selected over the whole.
const maxSpans = 6

// percentilesSampled is Percentiles for many samples, by bounds (Floyd and Rivest's
// selection): a sorted sample of every len(xs)/sampleSize-th value gives, for each order
// statistic wanted, two values that likely enclose it; one pass counts the values below each
// pair's lower bound and copies out those between, and selection runs on these few. The
// 112 MB result's 5.1 M gaps selected whole cost its import 70 ms of CPU (the median, p99 and
// the rest, each a quickselect moving millions of float64s about), on the path its run waits
// on. The values are the same order statistics, hence the same percentiles, bit for bit, and
// xs is left as it was. It declines (ok false) a sample with a NaN, which selection over the
// whole orders its own way, one whose bounds missed an order statistic (the sample was
// unlike the whole), and one wanting more than maxSpans spans: Percentiles then selects
// over the whole.
func percentilesSampled[T Float](xs []T, ps []float64) (out []float64, ok bool) {
	n := len(xs)
	sample := make([]T, sampleSize)
	stride := n / sampleSize
	for i := range sample {
		sample[i] = xs[i*stride]
	}
	slices.Sort(sample)
	// The order statistics wanted, two for each percentile (numpy's lower one and the next),
	// each likely enclosed by the values sampleSlack positions either side of its own in the
	// sample (none past either end: the least or greatest values).
	ranks := make([]int, 0, 2*len(ps))
	type bounds struct{ lo, hi T }
	var spans []bounds
	for _, p := range ps {
		lo, _ := rankOf(n, p)
		for _, r := range []int{lo, min(lo+1, n-1)} {
			at := int(float64(r) / float64(n-1) * float64(sampleSize-1))
			b := bounds{T(math.Inf(-1)), T(math.Inf(1))}
			if at-sampleSlack >= 0 {
				b.lo = sample[at-sampleSlack]
			}
			if at+sampleSlack < sampleSize {
				b.hi = sample[at+sampleSlack]
			}
			ranks, spans = append(ranks, r), append(spans, b)
		}
	}
	// Spans that overlap or touch are one: each value falls in one span or between two.
	slices.SortFunc(spans, func(a, b bounds) int { return cmp.Compare(a.lo, b.lo) })
	merged := spans[:1]
	for _, b := range spans[1:] {
		if last := &merged[len(merged)-1]; b.lo <= last.hi {
			last.hi = max(last.hi, b.hi)
		} else {
			merged = append(merged, b)
		}
	}
	if len(merged) > maxSpans {
		return nil, false
	}
	// A value's place is how many lower bounds it is at or above plus how many upper bounds
	// it is above: odd inside span place/2, even between spans. It is counted without a
	// branch (whether a value is below the median is a coin's toss, which a branch
	// mispredicts every other value), against bounds padded with NaN, which no value passes.
	var los, his [maxSpans]T
	for j := range maxSpans {
		los[j], his[j] = T(math.NaN()), T(math.NaN())
		if j < len(merged) {
			los[j], his[j] = merged[j].lo, merged[j].hi
		}
	}
	var places [2*maxSpans + 1]int
	between := make([][]T, len(merged))
	for j := range between {
		between[j] = make([]T, 0, 2*n/sampleSize*(2*sampleSlack+1))
	}
	if len(merged) <= 3 { // the usual: the median, p90, p99 (each compare costs)
		for _, x := range xs {
			if x != x {
				return nil, false
			}
			place := oneIf(x >= los[0]) + oneIf(x > his[0]) + oneIf(x >= los[1]) + oneIf(x > his[1]) +
				oneIf(x >= los[2]) + oneIf(x > his[2])
			places[place]++
			if place&1 != 0 { // a few in a hundred
				between[place>>1] = append(between[place>>1], x)
			}
		}
	} else {
		for _, x := range xs {
			if x != x {
				return nil, false
			}
			place := oneIf(x >= los[0]) + oneIf(x > his[0]) + oneIf(x >= los[1]) + oneIf(x > his[1]) +
				oneIf(x >= los[2]) + oneIf(x > his[2]) + oneIf(x >= los[3]) + oneIf(x > his[3]) +
				oneIf(x >= los[4]) + oneIf(x > his[4]) + oneIf(x >= los[5]) + oneIf(x > his[5])
			places[place]++
			if place&1 != 0 {
				between[place>>1] = append(between[place>>1], x)
			}
		}
	}
	// The rank of each span's least value, and each order statistic by selection within
	// its span, in ascending order, each selection over what the last left above it.
	below := make([]int, len(merged))
	for j := range merged {
		below[j] = places[2*j]
		if j > 0 {
			below[j] += below[j-1] + places[2*j-1]
		}
	}
	order := make([]int, len(ranks))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return ranks[a] - ranks[b] })
	vals := make([]float64, len(ranks))
	j, base := 0, 0
	for _, i := range order {
		r := ranks[i]
		for j < len(merged) && r >= below[j]+len(between[j]) {
			j, base = j+1, 0
		}
		if j == len(merged) || r < below[j] {
			return nil, false // the bounds missed it
		}
		k := r - below[j]
		vals[i] = float64(selectK(between[j][base:], k-base))
		base = k
	}
	out = make([]float64, len(ps))
	for i, p := range ps {
		lo, frac := rankOf(n, p)
		a := vals[2*i]
		if frac == 0 || lo+1 >= n {
			out[i] = a
			continue
		}
		out[i] = a + (vals[2*i+1]-a)*frac
	}
	return out, true
}

// oneIf is 1 for true; the compiler makes it a flag set, not a branch.
func oneIf(b bool) int {
	if b {
		return 1
	}
	return 0
}
