// Package numpy reproduces numpy's float64 sum, mean and standard deviation bit for bit, so
// generated files carry the very numbers vLLM's benchmark (which calls numpy) would write.
package numpy

import "math"

// Sum is numpy's pairwise summation (pairwise_sum_DOUBLE in loops_utils.h, PW_BLOCKSIZE 128).
func Sum(a []float64) float64 { return 0 + pairwise(a) }

func pairwise(a []float64) float64 {
	n := len(a)
	switch {
	case n < 8:
		res := math.Copysign(0, -1)
		for _, v := range a {
			res += v
		}
		return res
	case n <= 128:
		var r [8]float64
		copy(r[:], a[:8])
		i := 8
		for ; i < n-(n%8); i += 8 {
			for j := 0; j < 8; j++ {
				r[j] += a[i+j]
			}
		}
		res := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; i < n; i++ {
			res += a[i]
		}
		return res
	default:
		n2 := n / 2
		n2 -= n2 % 8
		return pairwise(a[:n2]) + pairwise(a[n2:])
	}
}

// Mean is numpy.mean.
func Mean(a []float64) float64 { return Sum(a) / float64(len(a)) }

// Std is numpy.std (population, ddof=0).
func Std(a []float64) float64 {
	m := Mean(a)
	d := make([]float64, len(a))
	for i, v := range a {
		d[i] = (v - m) * (v - m)
	}
	return math.Sqrt(Sum(d) / float64(len(a)))
}
