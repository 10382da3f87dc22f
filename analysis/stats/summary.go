// Package stats summarises samples the way the benchmark tools do (numpy's mean, population
// std and linearly interpolated percentiles), so recomputed numbers can be set beside the
// tools' own.
package stats

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"benchlens/model"
)

// DefaultStats are computed for every metric; percentiles the tool reported are added.
var DefaultStats = []string{"mean", "median", "std", "p99"}

// Summarise computes the named statistics (mean, median, std, min, max, pNN) of xs. It
// reorders xs. Empty input gives no statistics.
func Summarise(xs []float64, names []string) model.Stats {
	if len(xs) == 0 {
		return nil
	}
	out := model.Stats{}
	mean, std := meanStd(xs)
	var ps []float64 // percentiles wanted, with the names that want them
	var pnames []string
	for _, name := range names {
		switch {
		case name == "mean":
			out[name] = model.Num(mean)
		case name == "std":
			out[name] = model.Num(std)
		case name == "median", name == "min", name == "max", strings.HasPrefix(name, "p"):
			p := map[string]float64{"median": 50, "min": 0, "max": 100}[name]
			if strings.HasPrefix(name, "p") {
				var err error
				if p, err = strconv.ParseFloat(name[1:], 64); err != nil || p < 0 || p > 100 {
					continue
				}
			}
			ps, pnames = append(ps, p), append(pnames, name)
		}
	}
	for i, v := range Percentiles(xs, ps) {
		out[pnames[i]] = model.Num(v)
	}
	return out
}

// Float is the element type statistics work on: float32 halves the memory a selection over
// millions of gaps touches (gaps are stored as float32 anyway).
type Float interface{ ~float32 | ~float64 }

// Percentiles returns numpy's default (linear) percentiles of xs for each p in [0, 100]. It
// may reorder xs. Each selection works only on the part the previous one left above it, so
// several percentiles cost little more than one; millions of gaps are selected only among
// the few values a sample of them says enclose the percentiles (percentilesSampled).
func Percentiles[T Float](xs []T, ps []float64) []float64 {
	if len(xs) >= sampledAbove && len(ps) > 0 {
		if out, ok := percentilesSampled(xs, ps); ok {
			return out
		}
	}
	out := make([]float64, len(ps))
	order := make([]int, len(ps))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(ps[a], ps[b]) })
	base := 0 // xs[:base] holds only values at or below every later rank
	for _, i := range order {
		out[i] = percentileFrom(xs, base, ps[i])
		rank := int(math.Floor(ps[i] / 100 * float64(len(xs)-1)))
		base = max(base, min(rank, len(xs)-1))
	}
	return out
}

// Percentile is numpy's default (linear) percentile of xs, p in [0, 100]. It reorders xs.
func Percentile[T Float](xs []T, p float64) float64 {
	return percentileFrom(xs, 0, p)
}

// percentileFrom selects within xs[base:], knowing everything before base is no larger.
func percentileFrom[T Float](xs []T, base int, p float64) float64 {
	n := len(xs)
	if n == 0 {
		return math.NaN()
	}
	lo, frac := rankOf(n, p)
	a := float64(selectK(xs[base:], lo-base))
	if frac == 0 || lo+1 >= n {
		return a
	}
	// After selection everything right of lo is >= a; the next order statistic is their minimum.
	b := xs[lo+1]
	for _, x := range xs[lo+2:] {
		if x < b {
			b = x
		}
	}
	return a + (float64(b)-a)*frac
}

// meanStd returns the mean and the population standard deviation (numpy's default, ddof=0).
func meanStd(xs []float64) (float64, float64) {
	var sum float64
	for _, x := range xs {
		sum += x
	}
	mean := sum / float64(len(xs))
	var ss float64
	for _, x := range xs {
		d := x - mean
		ss += d * d
	}
	return mean, math.Sqrt(ss / float64(len(xs)))
}

// selectK puts the k-th smallest element at xs[k], smaller ones before it and larger after,
// and returns it (Hoare's quickselect with a median-of-three pivot).
func selectK[T Float | ~uint32](xs []T, k int) T {
	lo, hi := 0, len(xs)-1
	for lo < hi {
		mid := lo + (hi-lo)/2
		if xs[mid] < xs[lo] {
			xs[mid], xs[lo] = xs[lo], xs[mid]
		}
		if xs[hi] < xs[lo] {
			xs[hi], xs[lo] = xs[lo], xs[hi]
		}
		if xs[hi] < xs[mid] {
			xs[hi], xs[mid] = xs[mid], xs[hi]
		}
		pivot := xs[mid]
		i, j := lo, hi
		for i <= j {
			for xs[i] < pivot {
				i++
			}
			for xs[j] > pivot {
				j--
			}
			if i <= j {
				xs[i], xs[j] = xs[j], xs[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return xs[k]
		}
	}
	return xs[k]
}

// rankOf is numpy's linear interpolation point for percentile p of n values: the lower order
// statistic and the fraction of the way to the next one.
func rankOf(n int, p float64) (int, float64) {
	rank := p / 100 * float64(n-1)
	lo := max(0, min(int(math.Floor(rank)), n-1))
	return lo, rank - float64(lo)
}
