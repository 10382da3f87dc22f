// Package stats summarises samples the way the benchmark tools do (numpy's mean, population
// std and linearly interpolated percentiles), so recomputed numbers can be set beside the
// tools' own.
package stats

import (
	"math"
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
	for _, name := range names {
		switch {
		case name == "mean":
			out[name] = model.Num(mean)
		case name == "std":
			out[name] = model.Num(std)
		case name == "median":
			out[name] = model.Num(Percentile(xs, 50))
		case name == "min":
			out[name] = model.Num(Percentile(xs, 0))
		case name == "max":
			out[name] = model.Num(Percentile(xs, 100))
		case strings.HasPrefix(name, "p"):
			if p, err := strconv.ParseFloat(name[1:], 64); err == nil && p >= 0 && p <= 100 {
				out[name] = model.Num(Percentile(xs, p))
			}
		}
	}
	return out
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

// Percentile is numpy's default (linear) percentile of xs, p in [0, 100]. It reorders xs
// (selection, not a full sort: linear time on millions of gaps).
func Percentile(xs []float64, p float64) float64 {
	n := len(xs)
	if n == 0 {
		return math.NaN()
	}
	rank := p / 100 * float64(n-1)
	lo := int(math.Floor(rank))
	lo = max(0, min(lo, n-1))
	frac := rank - float64(lo)
	a := selectK(xs, lo)
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
	return a + (b-a)*frac
}

// selectK puts the k-th smallest element at xs[k], smaller ones before it and larger after,
// and returns it (Hoare's quickselect with a median-of-three pivot).
func selectK(xs []float64, k int) float64 {
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
