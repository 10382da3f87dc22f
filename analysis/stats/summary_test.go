package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"benchlens/model"
)

// numpy.percentile(x, p) with the default linear method, as a reference.
func refPercentile(xs []float64, p float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	rank := p / 100 * float64(len(s)-1)
	lo := int(math.Floor(rank))
	if lo+1 >= len(s) {
		return s[lo]
	}
	return s[lo] + (s[lo+1]-s[lo])*(rank-float64(lo))
}

func TestPercentileMatchesSortedReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, 2, 3, 10, 101, 1000, 5000} {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = math.Round(rng.ExpFloat64()*100) / 10 // ties on purpose
		}
		for _, p := range []float64{0, 1, 25, 50, 90, 99, 99.9, 100} {
			want := refPercentile(xs, p)
			got := Percentile(slices.Clone(xs), p)
			if math.Abs(got-want) > 1e-12*math.Abs(want) {
				t.Errorf("n=%d p=%v: got %v, want %v", n, p, got, want)
			}
		}
	}
}

func TestSummariseLikeNumpy(t *testing.T) {
	// numpy: mean 2.5, median 2.5, std 1.118033988749895, p99 3.97, p90 3.7
	s := Summarise([]float64{4, 1, 3, 2}, []string{"mean", "median", "std", "p99", "p90", "min", "max"})
	want := map[string]float64{"mean": 2.5, "median": 2.5, "std": 1.118033988749895, "p99": 3.97, "p90": 3.7, "min": 1, "max": 4}
	for k, w := range want {
		if got := s[k].F(); math.Abs(got-w) > 1e-12 {
			t.Errorf("%s = %v, want %v", k, got, w)
		}
	}
	if Summarise(nil, DefaultStats) != nil {
		t.Error("empty input gave statistics")
	}
}

func TestRecomputeFollowsVLLMDefinitions(t *testing.T) {
	nan := math.NaN()
	run := model.NewRun("vllm")
	run.Requests = []model.Request{
		{InputLen: 10, OutputLen: 3, TTFT: 0.100, TPOT: nan, Latency: nan, ITL: []float64{0.010, 0.020}},
		{InputLen: 10, OutputLen: 1, TTFT: 0.200, TPOT: nan, Latency: nan, ITL: []float64{}},
		{InputLen: 10, OutputLen: 0, TTFT: 0, TPOT: nan, Latency: nan, Error: "timeout"},
	}
	Recompute(run)
	check := func(metric, stat string, want float64) {
		t.Helper()
		if got := run.Recomputed[metric][stat].F(); math.Abs(got-want) > 1e-9 {
			t.Errorf("%s %s = %v, want %v", metric, stat, got, want)
		}
	}
	check(model.TTFT, "mean", 150)   // failed request excluded
	check(model.ITL, "mean", 15)     // pooled gaps
	check(model.TPOT, "mean", 15)    // (0.130-0.100)/(3-1); the one-token request is excluded
	check(model.E2EL, "median", 165) // 130 and 200
	if _, ok := run.Recomputed[model.TPOT]["p99"]; !ok {
		t.Error("default statistics missing")
	}
}

func TestPercentilesTogetherEqualEachAlone(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	xs := make([]float64, 10001)
	for i := range xs {
		xs[i] = math.Round(rng.NormFloat64()*50) / 7
	}
	ps := []float64{99, 0, 50, 99.9, 25, 100, 50}
	got := Percentiles(slices.Clone(xs), ps)
	for i, p := range ps {
		if want := refPercentile(xs, p); got[i] != want {
			t.Errorf("p%v = %v, want %v", p, got[i], want)
		}
	}
}

func TestPercentileF32MatchesSelection(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{1, 2, 7, 1000, selectMax, selectMax + 1, 100001} {
		xs := make([]float32, n)
		for i := range xs {
			xs[i] = float32(rng.NormFloat64()*3 + 12)
			if i%17 == 0 {
				xs[i] = -xs[i] // negatives sort too
			}
			if i%5 == 0 && i > 0 {
				xs[i] = xs[i-1] // ties
			}
		}
		for _, p := range []float64{0, 0.1, 25, 50, 99, 99.9, 100} {
			want := Percentile(slices.Clone(xs), p)
			if got := PercentileF32(xs, p); got != want {
				t.Errorf("n=%d p=%v: got %v, want %v", n, p, got, want)
			}
		}
		ps := []float64{99, 0, 50, 90, 100, 50} // unsorted, repeated, sharing high digits or not
		got := PercentilesF32(xs, ps...)
		for i, p := range ps {
			if want := Percentile(slices.Clone(xs), p); got[i] != want {
				t.Errorf("n=%d PercentilesF32 p=%v: got %v, want %v", n, p, got[i], want)
			}
		}
	}
}

// BenchmarkPercentilesF32 is p50, p90 and p99 of a run's gaps: a few (one request), a small
// run's (20 requests), either side of selectMax, and millions.
func BenchmarkPercentilesF32(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, n := range []int{15, 2540, selectMax, selectMax + 1, 5_000_000} {
		xs := make([]float32, n)
		for i := range xs {
			xs[i] = float32(12 * (1 + 0.05*rng.NormFloat64()))
		}
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				PercentilesF32(xs, 50, 90, 99)
			}
		})
	}
}
