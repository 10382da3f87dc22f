package history

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// noisy is a series of levels (level, runs) with relative gaussian noise, seeded.
func noisy(seed uint64, noise float64, parts ...[2]float64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	var xs []float64
	for _, p := range parts {
		for range int(p[1]) {
			xs = append(xs, p[0]*(1+noise*rng.NormFloat64()))
		}
	}
	return xs
}

func TestDetect(t *testing.T) {
	spike := noisy(3, 0.01, [2]float64{20, 40})
	spike[17] = 27
	twoSpikes := noisy(4, 0.01, [2]float64{20, 30}, [2]float64{23, 30})
	twoSpikes[10], twoSpikes[45] = 14, 30
	withNaN := noisy(5, 0.01, [2]float64{10, 20}, [2]float64{12, 20})
	withNaN[5], withNaN[25] = math.NaN(), math.NaN()
	tests := []struct {
		name     string
		xs       []float64
		steps    []int
		outliers []int
	}{
		{"one step up", noisy(1, 0.01, [2]float64{10, 30}, [2]float64{11, 30}), []int{30}, nil},
		{"one step down", noisy(2, 0.02, [2]float64{100, 25}, [2]float64{90, 35}), []int{25}, nil},
		{"two steps", noisy(6, 0.01, [2]float64{10, 20}, [2]float64{11, 20}, [2]float64{10.4, 20}), []int{20, 40}, nil},
		{"lone outlier is not a step", spike, nil, []int{17}},
		{"outliers beside a step", twoSpikes, []int{30}, []int{10, 45}},
		{"noisy steady series", noisy(7, 0.03, [2]float64{50, 120}), nil, nil},
		{"noisy steady series, other seed", noisy(8, 0.05, [2]float64{50, 200}), nil, nil},
		{"step under the minimum magnitude", noisy(9, 0.002, [2]float64{10, 30}, [2]float64{10.1, 30}), nil, nil},
		{"step late in the series", noisy(10, 0.01, [2]float64{10, 40}, [2]float64{11, 3}), []int{40}, nil},
		{"unknown values are skipped", withNaN, []int{20}, nil},
		{"too short to judge", []float64{1, 2}, nil, nil},
		{"empty", nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Detect(tt.xs, DefaultSettings)
			var at []int
			for _, s := range got.Steps {
				at = append(at, s.Index)
				if s.P >= DefaultSettings.Alpha {
					t.Errorf("step at %d: p %.3f not under alpha", s.Index, s.P)
				}
				if math.Abs(s.DeltaPct()) <= 100*DefaultSettings.MinMagnitude {
					t.Errorf("step at %d: %.2f %% under the minimum magnitude", s.Index, s.DeltaPct())
				}
			}
			if !slices.Equal(at, tt.steps) {
				t.Errorf("steps at %v, want %v", at, tt.steps)
			}
			if !slices.Equal(got.Outliers, tt.outliers) {
				t.Errorf("outliers %v, want %v", got.Outliers, tt.outliers)
			}
			again := Detect(tt.xs, DefaultSettings)
			if !slices.EqualFunc(got.Steps, again.Steps, func(a, b Step) bool { return a == b }) {
				t.Errorf("a second run gave %v, the first %v", again.Steps, got.Steps)
			}
		})
	}
}

// TestStepLevels checks a step's levels are its segments' medians.
func TestStepLevels(t *testing.T) {
	xs := []float64{10, 10, 10, 10, 10, 10, 10, 10, 12, 12, 12, 12, 12, 12, 12, 12}
	got := Detect(xs, DefaultSettings)
	if len(got.Steps) != 1 || got.Steps[0].Index != 8 || got.Steps[0].Before != 10 || got.Steps[0].After != 12 {
		t.Fatalf("steps %+v, want one at 8 from 10 to 12", got.Steps)
	}
	if d := got.Steps[0].DeltaPct(); math.Abs(d-20) > 1e-9 {
		t.Errorf("delta %.3f %%, want 20", d)
	}
	if !slices.Equal(got.Segments, [][2]int{{0, 8}, {8, 16}}) {
		t.Errorf("segments %v", got.Segments)
	}
}

// TestEnergyMatchesPairs checks the rank-indexed statistic against the plain pair sums.
func TestEnergyMatchesPairs(t *testing.T) {
	xs := noisy(11, 0.1, [2]float64{5, 9}, [2]float64{7, 8})
	xs[3] = xs[4] // a tie
	e := newEnergy(xs)
	tau, q := e.best(e.items, 1, newScratch(len(xs)))
	bestTau, bestQ := 0, -1.0
	for t := 1; t < len(xs); t++ {
		x, y := xs[:t], xs[t:]
		var b, wx, wy float64
		for _, a := range x {
			for _, c := range y {
				b += math.Abs(a - c)
			}
		}
		for i := range x {
			for j := i + 1; j < len(x); j++ {
				wx += math.Abs(x[i] - x[j])
			}
		}
		for i := range y {
			for j := i + 1; j < len(y); j++ {
				wy += math.Abs(y[i] - y[j])
			}
		}
		m, n := float64(len(x)), float64(len(y))
		stat := 2 * b / (m * n)
		if len(x) > 1 {
			stat -= wx / (m * (m - 1) / 2)
		}
		if len(y) > 1 {
			stat -= wy / (n * (n - 1) / 2)
		}
		stat *= m * n / (m + n)
		if stat > bestQ {
			bestTau, bestQ = t, stat
		}
	}
	if tau != bestTau || math.Abs(q-bestQ) > 1e-9*math.Abs(bestQ) {
		t.Errorf("best split %d (Q %.6f), pair sums give %d (Q %.6f)", tau, q, bestTau, bestQ)
	}
}

// BenchmarkDetect10000 is rule 13's scale: ten thousand nightly runs with a few steps and
// outliers, under a second.
func BenchmarkDetect10000(b *testing.B) {
	xs := noisy(12, 0.02, [2]float64{10, 3000}, [2]float64{11, 2500}, [2]float64{10.5, 2500}, [2]float64{9.5, 2000})
	for i := 100; i < len(xs); i += 997 {
		xs[i] *= 1.5
	}
	for b.Loop() {
		if got := Detect(xs, DefaultSettings); len(got.Steps) < 3 {
			b.Fatalf("found %d steps", len(got.Steps))
		}
	}
}
