package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// TestSampledMatchesSelection holds the percentiles of many samples taken within sampled
// bounds bit-equal to selection over all of them, on samples that crowd one value, spread
// wide, tie, cross zero (both zeros), reach the infinities or come sorted; a sample with a
// NaN, or one whose every sampled value is unlike the rest, is declined, and Percentiles
// selects it whole.
func TestSampledMatchesSelection(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	n := sampledAbove + 7
	gens := map[string]func(i int) float64{
		"gaps":      func(int) float64 { return 12 * (1 + 0.05*rng.NormFloat64()) },
		"one value": func(int) float64 { return 0.25 },
		"ties":      func(int) float64 { return math.Round(rng.ExpFloat64()*20) / 4 },
		"wide":      func(int) float64 { return math.Exp(rng.NormFloat64() * 30) },
		"sorted":    func(i int) float64 { return float64(i) / 3 },
		"signed zeros": func(i int) float64 {
			switch i % 5 {
			case 0:
				return math.Copysign(0, -1)
			case 1:
				return 0
			}
			return rng.NormFloat64()
		},
		"infinities": func(i int) float64 {
			switch i % 97 {
			case 0:
				return math.Inf(1)
			case 1:
				return math.Inf(-1)
			}
			return rng.NormFloat64()
		},
	}
	ps := []float64{99, 0, 50, 90, 100, 50, 99.9, 0.1, 25}
	samples := map[string][]float64{}
	for name, gen := range gens {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = gen(i)
		}
		samples[name] = xs
	}
	for name, xs := range samples {
		before := slices.Clone(xs)
		got, ok := percentilesSampled(xs, ps)
		if !ok {
			t.Fatalf("%s: declined", name)
		}
		if !slices.Equal(xs, before) {
			t.Errorf("%s: the samples were reordered", name)
		}
		for i, p := range ps {
			if want := Percentile(slices.Clone(xs), p); !sameFloat(got[i], want) {
				t.Errorf("%s p%v: got %v, want %v (selection)", name, p, got[i], want)
			}
		}
		f32 := make([]float32, n)
		for i, x := range xs {
			f32[i] = float32(x)
		}
		got, _ = percentilesSampled(f32, ps)
		for i, p := range ps {
			if want := Percentile(slices.Clone(f32), p); !sameFloat(got[i], want) {
				t.Errorf("%s float32 p%v: got %v, want %v (selection)", name, p, got[i], want)
			}
		}
	}
	nan := make([]float64, n)
	unlike := make([]float64, n) // every sampled value the greatest
	for i := range nan {
		nan[i], unlike[i] = float64(i), float64(i%(n/sampleSize))
		if i%(n/sampleSize) == 0 {
			unlike[i] = 1e9
		}
	}
	nan[n/2] = math.NaN()
	if _, ok := percentilesSampled(nan, ps); ok {
		t.Error("NaN: not declined")
	}
	deciles := []float64{0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100} // more spans than maxSpans
	if _, ok := percentilesSampled(samples["sorted"], deciles); ok {
		t.Error("deciles: not declined")
	}
	mid := []float64{50, 90} // bounds from the sample alone: the lowest values' reach -Inf
	if _, ok := percentilesSampled(unlike, mid); ok {
		t.Error("unlike: not declined")
	}
	got := Percentiles(slices.Clone(unlike), mid)
	for i, p := range mid {
		if want := refPercentile(unlike, p); got[i] != want {
			t.Errorf("unlike p%v: got %v, want %v", p, got[i], want)
		}
	}
}

// sameFloat is equality with NaN equal to itself (and, as ever, the zeros to each other:
// selection gives either of a tie).
func sameFloat(a, b float64) bool { return a == b || a != a && b != b }

// BenchmarkPercentiles is Summarise's median, p90 and p99 of a run's gaps as float64: a
// small run's, and the 112 MB result's millions, within sampled bounds and selected whole.
func BenchmarkPercentiles(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, n := range []int{2540, 5_000_000} {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = 12 * (1 + 0.05*rng.NormFloat64())
		}
		work := make([]float64, n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				copy(work, xs)
				Percentiles(work, []float64{50, 90, 99})
			}
		})
		b.Run(strconv.Itoa(n)+"/whole", func(b *testing.B) {
			for b.Loop() {
				copy(work, xs)
				for _, p := range []float64{50, 90, 99} {
					Percentile(work, p)
				}
			}
		})
	}
}
