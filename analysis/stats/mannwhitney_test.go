package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestMannWhitney(t *testing.T) {
	tests := []struct {
		a, b []float64
		p    float64
	}{
		// Exact: completely separated 5 vs 5 gives 2/252 (scipy.stats.mannwhitneyu, exact).
		{[]float64{1, 2, 3, 4, 5}, []float64{6, 7, 8, 9, 10}, 2.0 / 252},
		{[]float64{6, 7, 8, 9, 10}, []float64{1, 2, 3, 4, 5}, 2.0 / 252},
		// scipy exact: a=[1,3,5,7,9], b=[2,4,6,8,10] -> p = 0.6904761904761905
		{[]float64{1, 3, 5, 7, 9}, []float64{2, 4, 6, 8, 10}, 0.6904761904761905},
		// 2 vs 2 separated: 2/6.
		{[]float64{1, 2}, []float64{3, 4}, 1.0 / 3},
		// Identical samples (all ties): no evidence at all.
		{[]float64{5, 5, 5}, []float64{5, 5, 5}, 1},
		{nil, []float64{1}, 1},
	}
	for _, tt := range tests {
		if got := MannWhitney(tt.a, tt.b); math.Abs(got-tt.p) > 1e-9 {
			t.Errorf("MannWhitney(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.p)
		}
	}
	// Large samples with a shift: the normal approximation finds it.
	var a, b []float64
	for i := range 200 {
		a = append(a, float64(i%50))
		b = append(b, float64(i%50)+5)
	}
	if p := MannWhitney(a, b); p > 0.01 {
		t.Errorf("shifted large samples: p = %v", p)
	}
	if p := MannWhitney(a, a); p < 0.9 {
		t.Errorf("identical large samples: p = %v", p)
	}
}

func TestMinPossibleP(t *testing.T) {
	if p := MinPossibleP(2, 2); math.Abs(p-1.0/3) > 1e-12 {
		t.Errorf("2 vs 2: %v", p)
	}
	if p := MinPossibleP(5, 5); math.Abs(p-2.0/252) > 1e-12 {
		t.Errorf("5 vs 5: %v", p)
	}
}

func TestHolm(t *testing.T) {
	got := Holm([]float64{0.01, 0.04, 0.03})
	want := []float64{0.03, 0.06, 0.06}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Errorf("Holm = %v, want %v", got, want)
		}
	}
}

func TestRatioCI(t *testing.T) {
	var a, b []float64
	for i := range 400 {
		a = append(a, 100+float64(i%20))
		b = append(b, 90+float64(i%20))
	}
	lo, hi := RatioCI(a, b, 0.95, 500, 0, 1)
	if !(lo < -0.05 && hi < 0 && lo > -0.15) {
		t.Errorf("CI [%v, %v] should hold about -9 %%", lo, hi)
	}
	lo2, hi2 := RatioCI(a, b, 0.95, 500, 0, 1)
	if lo != lo2 || hi != hi2 {
		t.Error("not deterministic")
	}
	if TrimmedMedian([]float64{1, 100, 3, 2, -50}) != 2 {
		t.Error("trimmed median")
	}
}

// ratioCIBySelection is the plain bootstrap RatioCI stands for: each resample drawn value by
// value, its median by Percentile.
func ratioCIBySelection(a, b []float64, level float64, iterations int, seed uint64) (float64, float64) {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	ra, rb := make([]float64, len(a)), make([]float64, len(b))
	var ratios []float64
	for range iterations {
		for i := range ra {
			ra[i] = a[rng.IntN(len(a))]
		}
		for i := range rb {
			rb[i] = b[rng.IntN(len(b))]
		}
		if ma, mb := Percentile(ra, 50), Percentile(rb, 50); ma != 0 {
			ratios = append(ratios, mb/ma-1)
		}
	}
	alpha := (1 - level) / 2
	return Percentile(slices.Clone(ratios), 100*alpha), Percentile(ratios, 100*(1-alpha))
}

// RatioCI's interval is the plain bootstrap's, up to the resampling's own noise: with many
// resamples both settle on the same bounds.
func TestRatioCIIsThePlainBootstrap(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, n := range [][2]int{{2, 3}, {64, 128}, {101, 57}, {1000, 999}} {
		a, b := make([]float64, n[0]), make([]float64, n[1])
		for i := range a {
			a[i] = 10 + float64(rng.IntN(5)) // ties
		}
		for i := range b {
			b[i] = 10 + rng.NormFloat64()
		}
		lo, hi := RatioCI(a, b, 0.9, 20000, 0, 3)
		wlo, whi := ratioCIBySelection(a, b, 0.9, 20000, 3)
		if math.Abs(lo-wlo) > 0.01 || math.Abs(hi-whi) > 0.01 {
			t.Errorf("n=%v: [%.4f, %.4f], the plain bootstrap [%.4f, %.4f]", n, lo, hi, wlo, whi)
		}
	}
}

func BenchmarkRatioCI(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	x, y := make([]float64, 100), make([]float64, 100)
	for i := range x {
		x[i], y[i] = rng.Float64(), rng.Float64()
	}
	for b.Loop() {
		RatioCI(x, y, 0.95, 10000, 0, 1)
	}
}

func BenchmarkRatioCIBySelection(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	x, y := make([]float64, 100), make([]float64, 100)
	for i := range x {
		x[i], y[i] = rng.Float64(), rng.Float64()
	}
	for b.Loop() {
		ratioCIBySelection(x, y, 0.95, 10000, 1)
	}
}
