package stats

import "math"

// How many runs a comparison needs (issue 28 item 5). The test of rule 2 is Mann-Whitney U
// across runs, so two limits apply:
//
//  1. The exact test cannot reach p < alpha with too few runs whatever the data: its smallest
//     p is MinPossibleP(n1, n2) (2 / C(n1+n2, n1)); 3+3 runs give 0.1, 4+4 give 0.029.
//  2. Above that, the change it detects with power 1-β follows the normal approximation of
//     the two-sample test, corrected by Mann-Whitney's asymptotic relative efficiency against
//     the t-test for normal data, 3/π:
//
//     δ = (z_{1-α/2} + z_{1-β}) · σ · √(1/n1 + 1/n2) / √(3/π)
//
//     where σ is the run-to-run spread as a fraction of the level (RelativeSpread: the two
//     arms' sample standard deviations over their medians, pooled), and δ is the relative
//     change; RunsFor is the fewest n1 = n2 = n for which δ is at most the change asked for.
//     Small samples lose power to the exact test's discreteness, so below 10 runs an arm
//     counts as one run fewer; TestPowerBySimulation checks the power this gives by
//     simulating normal runs and applying MannWhitney.

// Power is the power the run counts are sized for.
const Power = 0.8

// mwEfficiency is Mann-Whitney's asymptotic relative efficiency against the t-test, 3/π.
const mwEfficiency = 3 / math.Pi

// NormalQuantile is the standard normal distribution's quantile function.
func NormalQuantile(p float64) float64 { return math.Sqrt2 * math.Erfinv(2*p-1) }

// RelativeSpread is the run-to-run spread of two arms' per-run values as a fraction of their
// level: √((s_a² / m_a² + s_b² / m_b²) / 2) with s the sample standard deviation and m the
// median of each arm. NaN when an arm has fewer than 2 runs or a zero median.
func RelativeSpread(a, b []float64) float64 {
	cv := func(xs []float64) float64 {
		if len(xs) < 2 {
			return math.NaN()
		}
		m := Median(xs)
		_, sd := meanStd(xs)
		sd *= math.Sqrt(float64(len(xs)) / float64(len(xs)-1)) // the sample, not population, deviation
		if m == 0 {
			return math.NaN()
		}
		return sd / math.Abs(m)
	}
	ca, cb := cv(a), cv(b)
	return math.Sqrt((ca*ca + cb*cb) / 2)
}

// DetectableChange is the smallest relative change (0.031 = 3.1 %) that n1 and n2 runs of the
// given relative spread detect at alpha with the power Power; +Inf when the exact test cannot
// reach alpha with so few runs.
func DetectableChange(spread float64, n1, n2 int, alpha float64) float64 {
	if n1 < 2 || n2 < 2 || math.IsNaN(spread) || MinPossibleP(n1, n2) >= alpha {
		return math.Inf(1)
	}
	eff := func(n int) float64 { // the small-sample correction of RunsFor, undone
		if n < 10 {
			return float64(n - 1)
		}
		return float64(n)
	}
	z := NormalQuantile(1-alpha/2) + NormalQuantile(Power)
	return z * spread * math.Sqrt(1/eff(n1)+1/eff(n2)) / math.Sqrt(mwEfficiency)
}

// RunsFor is the number of runs per arm that detects a relative change of the given size at
// alpha with the power Power: the fewest n for which DetectableChange(spread, n, n) is at most
// the change (and so enough for the exact test to reach alpha); 0 when the spread is unknown,
// maxRuns when even that many would not do.
func RunsFor(spread, change, alpha float64) int {
	if math.IsNaN(spread) || !(change > 0) {
		return 0
	}
	for n := 2; n < maxRuns; n++ {
		if DetectableChange(spread, n, n, alpha) <= change {
			return n
		}
	}
	return maxRuns
}

// maxRuns bounds RunsFor: beyond it the answer is "too noisy to test", not a number of runs.
const maxRuns = 10000
