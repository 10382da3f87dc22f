package stats

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortFloatsAsSlicesSort sorts samples of every kind the compare meets (latencies, ties,
// signs, infinities, zeros of both signs, NaNs) and checks each against slices.Sort.
func TestSortFloatsAsSlicesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	gen := map[string]func(i int) float64{
		"gaps":  func(int) float64 { return 0.012 * (1 + 0.05*rng.NormFloat64()) },
		"ties":  func(int) float64 { return float64(rng.IntN(5)) / 4 },
		"signs": func(int) float64 { return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20)) },
		"extremes": func(i int) float64 {
			return []float64{math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), math.MaxFloat64, -math.SmallestNonzeroFloat64, 1}[i%7]
		},
		"nan":       func(i int) float64 { return []float64{math.NaN(), 3, -2, 1}[i%4] },
		"sorted":    func(i int) float64 { return float64(i) },
		"reversed":  func(i int) float64 { return -float64(i) },
		"one value": func(int) float64 { return 0.5 },
	}
	for name, g := range gen {
		for _, n := range []int{0, 1, 2, radixSortMin - 1, radixSortMin, 1000, 12700} {
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = g(i)
			}
			sortsAsSlicesSort(t, name, xs)
		}
	}
}

func FuzzSortFloats(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8})
	f.Fuzz(func(t *testing.T, data []byte) {
		var xs []float64
		for ; len(data) >= 8; data = data[8:] {
			xs = append(xs, math.Float64frombits(binary.LittleEndian.Uint64(data)))
		}
		for len(xs) > 0 && len(xs) < radixSortMin {
			xs = append(xs, xs...)
		}
		sortsAsSlicesSort(t, "fuzzed", xs)
	})
}

// sortsAsSlicesSort sorts xs with SortFloats and fails where it differs from slices.Sort (a
// NaN matching a NaN).
func sortsAsSlicesSort(t *testing.T, what string, xs []float64) {
	t.Helper()
	want := slices.Clone(xs)
	slices.Sort(want)
	SortFloats(xs)
	for i := range xs {
		if !(xs[i] == want[i] || xs[i] != xs[i] && want[i] != want[i]) {
			t.Fatalf("%s, %d values: [%d] = %v, want %v", what, len(xs), i, xs[i], want[i])
		}
	}
}

func BenchmarkSortFloats(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	src := make([]float64, 4000)
	for i := range src {
		src[i] = 0.012 * (1 + 0.05*rng.NormFloat64())
	}
	xs := make([]float64, len(src))
	for _, sorter := range []struct {
		name string
		sort func([]float64)
	}{{"radix", SortFloats}, {"pdqsort", slices.Sort[[]float64]}} {
		b.Run(sorter.name, func(b *testing.B) {
			for b.Loop() {
				copy(xs, src)
				sorter.sort(xs)
			}
		})
	}
}
