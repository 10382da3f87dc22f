package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestStudentTwoSidedKnownValues(t *testing.T) {
	// Critical values from the t table: P(|T| >= t) for df degrees of freedom.
	for _, c := range []struct{ t, df, p float64 }{
		{2.228, 10, 0.05}, {3.169, 10, 0.01}, {1.96, 1e6, 0.05}, {2.576, 1e6, 0.01},
		{12.706, 1, 0.05}, {2.042, 30, 0.05}, {0, 5, 1},
	} {
		if got := StudentTwoSided(c.t, c.df); math.Abs(got-c.p) > 0.0005 {
			t.Errorf("StudentTwoSided(%g, %g) = %.5f, want %.3f", c.t, c.df, got, c.p)
		}
	}
}

func TestSpearman(t *testing.T) {
	x := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	// A monotone but non-linear rise is a rank correlation of 1.
	y := []float64{1, 4, 9, 16, 25, 36, 49, 64, 81, 100}
	if r, p := Spearman(x, y); r != 1 || p != 0 {
		t.Errorf("monotone: rho=%g p=%g, want 1, 0", r, p)
	}
	// Neighbours swapped: rho = 1 - 6·10/990 = 0.93939, t = 7.75 on 8 df, p = 5.484e-05
	// (integrating the t density numerically).
	r, p := Spearman(x, []float64{2, 1, 4, 3, 6, 5, 8, 7, 10, 9})
	if math.Abs(r-0.939394) > 1e-5 || math.Abs(p-5.484e-5) > 0.01e-5 {
		t.Errorf("pairs swapped: rho=%g p=%g, want 0.9394, 5.5e-05", r, p)
	}
	// Ties get mid-ranks: Pearson's r of [1 2.5 2.5 4 5] and [1 4 2.5 2.5 5] is 0.763158
	// (Python's statistics.correlation).
	if r, _ := Spearman([]float64{1, 2, 2, 3, 4}, []float64{1, 3, 2, 2, 5}); math.Abs(r-0.7631579) > 1e-6 {
		t.Errorf("ties: rho=%g, want 0.7632", r)
	}
	if r, p := Spearman([]float64{1, 1, 1}, []float64{1, 2, 3}); !math.IsNaN(r) || p != 1 {
		t.Errorf("a constant side: rho=%g p=%g, want NaN, 1", r, p)
	}
}

func TestDetectableChangeNeedsEnoughRunsForAlpha(t *testing.T) {
	// 3+3 runs: the exact test's smallest p is 0.1, no change is detectable at 0.05.
	if d := DetectableChange(0.02, 3, 3, 0.05); !math.IsInf(d, 1) {
		t.Errorf("3+3 runs detect %g, want +Inf", d)
	}
	if n := RunsFor(0.0001, 0.5, 0.05); n != 4 {
		t.Errorf("a tiny spread needs %d runs, want 4 (the fewest that can reach p < 0.05)", n)
	}
	// More runs detect smaller changes; a larger change needs fewer runs.
	if DetectableChange(0.02, 10, 10, 0.05) >= DetectableChange(0.02, 5, 5, 0.05) {
		t.Error("10+10 runs should detect a smaller change than 5+5")
	}
	if RunsFor(0.02, 0.01, 0.05) <= RunsFor(0.02, 0.03, 0.05) {
		t.Error("a 1 % change should need more runs than a 3 % one")
	}
	// RunsFor and DetectableChange agree: n runs detect the change RunsFor sized them for.
	for _, change := range []float64{0.005, 0.01, 0.02, 0.05} {
		n := RunsFor(0.02, change, 0.05)
		if DetectableChange(0.02, n, n, 0.05) > change || n > 4 && DetectableChange(0.02, n-1, n-1, 0.05) <= change {
			t.Errorf("RunsFor(2 %% spread, %g) = %d is not the fewest runs that detect it", change, n)
		}
	}
}

// TestPowerBySimulation checks the normal approximation behind RunsFor: runs of a relative
// spread σ, sized by RunsFor for a change δ, detect δ with about Power when the runs are drawn
// from normal distributions and compared with MannWhitney at alpha, as the comparison does.
func TestPowerBySimulation(t *testing.T) {
	const alpha, trials = 0.05, 1000
	rng := rand.New(rand.NewPCG(7, 11))
	for _, c := range []struct{ spread, change float64 }{{0.02, 0.04}, {0.02, 0.02}, {0.03, 0.02}, {0.01, 0.03}} {
		n := RunsFor(c.spread, c.change, alpha)
		hits := 0
		a, b := make([]float64, n), make([]float64, n)
		for range trials {
			for i := range n {
				a[i] = 100 * (1 + c.spread*rng.NormFloat64())
				b[i] = 100 * (1 - c.change) * (1 + c.spread*rng.NormFloat64())
			}
			if MannWhitney(a, b) < alpha {
				hits++
			}
		}
		power := float64(hits) / trials
		t.Logf("spread %.1f %%, change %.1f %%: %d runs per arm, simulated power %.3f", 100*c.spread, 100*c.change, n, power)
		if power < Power-0.06 || power > 0.97 {
			t.Errorf("spread %g, change %g: %d runs give power %.3f, want about %.2f", c.spread, c.change, n, power, Power)
		}
	}
}
