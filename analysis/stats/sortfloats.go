package stats

import (
	"math"
	"slices"
)

// radixSortMin is the fewest values SortFloats sorts by radix: below it pdqsort's few
// comparisons beat the passes' fixed cost.
const radixSortMin = 256

// SortFloats sorts xs ascending, as slices.Sort does: by an LSD radix sort of the values'
// order-preserving bits, a byte a pass, passes on which every value has the same byte
// skipped (the sign and exponent of one stage's latencies mostly are). The compare of a
// 36-point sweep sorts thousands of samples of thousands of gaps; pdqsort took 40 % of it.
// A sample with a NaN is left to slices.Sort, which puts NaNs first.
func SortFloats(xs []float64) {
	n := len(xs)
	if n < radixSortMin {
		slices.Sort(xs)
		return
	}
	keys := make([]uint64, n)
	var hist [8][256]int
	for i, x := range xs {
		if x != x {
			slices.Sort(xs)
			return
		}
		k := orderBits64(x)
		keys[i] = k
		for d := range 8 {
			hist[d][byte(k>>(8*d))]++
		}
	}
	tmp := make([]uint64, n)
	for d := range 8 {
		h := &hist[d]
		if h[byte(keys[0]>>(8*d))] == n {
			continue // one byte for every value: this pass keeps the order
		}
		sum := 0
		for b := range h {
			h[b], sum = sum, sum+h[b]
		}
		shift := 8 * d
		for _, k := range keys {
			b := byte(k >> shift)
			tmp[h[b]] = k
			h[b]++
		}
		keys, tmp = tmp, keys
	}
	for i, k := range keys {
		xs[i] = fromOrderBits64(k)
	}
}

// sortedCopy is xs sorted: xs itself when it is (a caller that sorted a sample once), else a
// sorted copy.
func sortedCopy(xs []float64) []float64 {
	if slices.IsSorted(xs) {
		return xs
	}
	s := slices.Clone(xs)
	SortFloats(s)
	return s
}

// orderBits64 maps a float64 to bits whose unsigned order is the values' order: negative
// values have every bit flipped, others only the sign bit.
func orderBits64(x float64) uint64 {
	u := math.Float64bits(x)
	if u>>63 != 0 {
		return ^u
	}
	return u | 1<<63
}

func fromOrderBits64(k uint64) float64 {
	if k>>63 != 0 {
		return math.Float64frombits(k &^ (1 << 63))
	}
	return math.Float64frombits(^k)
}
