package stats

import (
	"math"
)

// PercentileF32 is Percentile for float32 samples without NaN, by radix selection: two
// counting passes over 16-bit digits of each value's order-preserving bits find any order
// statistic exactly, without moving the samples. On millions of gaps it is several times
// faster than selection, and it leaves xs as it was.
func PercentileF32(xs []float32, p float64) float64 {
	return PercentilesF32(xs, p)[0]
}

// PercentilesF32 is PercentileF32 for several percentiles at once: the order statistics they
// need share the same two counting passes, so p50, p90 and p99 of millions of gaps cost what
// one of them does.
func PercentilesF32(xs []float32, ps ...float64) []float64 {
	out := make([]float64, len(ps))
	n := len(xs)
	if n == 0 {
		for i := range out {
			out[i] = math.NaN()
		}
		return out
	}
	ranks := make([]int, 0, 2*len(ps))
	for _, p := range ps {
		lo, _ := rankOf(n, p)
		ranks = append(ranks, lo, min(lo+1, n-1))
	}
	vals := kthsF32(xs, ranks)
	for i, p := range ps {
		lo, frac := rankOf(n, p)
		a := float64(vals[2*i])
		if frac == 0 || lo+1 >= n {
			out[i] = a
			continue
		}
		out[i] = a + (float64(vals[2*i+1])-a)*frac
	}
	return out
}

// kthsF32 returns the k-th smallest value (0-based) for each k, in two passes over xs: one
// histogram of the high 16 bits, then one of the low 16 bits per distinct high digit.
func kthsF32(xs []float32, ks []int) []float32 {
	var hist [1 << 16]int32
	for _, f := range xs {
		hist[orderBits(f)>>16]++
	}
	type pick struct {
		high uint32
		k    int // rank inside the high digit's values
	}
	picks := make([]pick, len(ks))
	lows := map[uint32]*[1 << 16]int32{}
	for i, k := range ks {
		high, rest := digit(&hist, k)
		picks[i] = pick{high, rest}
		if lows[high] == nil {
			lows[high] = new([1 << 16]int32)
		}
	}
	if len(lows) == 1 {
		for high, h := range lows {
			for _, f := range xs {
				if u := orderBits(f); u>>16 == high {
					h[u&0xffff]++
				}
			}
		}
	} else {
		for _, f := range xs {
			u := orderBits(f)
			if h := lows[u>>16]; h != nil {
				h[u&0xffff]++
			}
		}
	}
	out := make([]float32, len(ks))
	for i, p := range picks {
		low, _ := digit(lows[p.high], p.k)
		out[i] = fromOrderBits(p.high<<16 | low)
	}
	return out
}

// orderBits maps a float32 to a uint32 that sorts like the float.
func orderBits(f float32) uint32 {
	u := math.Float32bits(f)
	if u&0x80000000 != 0 {
		return ^u
	}
	return u | 0x80000000
}

func fromOrderBits(u uint32) float32 {
	if u&0x80000000 != 0 {
		return math.Float32frombits(u &^ 0x80000000)
	}
	return math.Float32frombits(^u)
}

// digit finds the bucket holding the k-th element and k's rank inside it.
func digit(hist *[1 << 16]int32, k int) (uint32, int) {
	for d, c := range hist {
		if k < int(c) {
			return uint32(d), k
		}
		k -= int(c)
	}
	return 0xffff, 0 // not reached for k < len
}
