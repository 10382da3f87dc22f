package model

// MeasuredStats are a run's p50, p90 and p99 of each per-request latency over the requests a
// comparison measures (in start order, the declared warm-up dropped), stored at import: a
// compare of a thousand runs reads these instead of selecting over every gap of every run
// again. They are the same floats the compare computes (compare.MeasuredStatsOf), and they
// stand only for the requests they were taken over: Requests and Dropped say which, so a run
// whose warm-up is declared anew (a bundle.yaml applied again) is computed afresh.
type MeasuredStats struct {
	Requests int // len(Run.Requests) when they were computed
	Dropped  int // the leading requests dropped as the declared warm-up
	// Quantiles are per latency (TTFT, TPOT, E2EL, ITL), in ms: p50, p90, p99. A latency
	// with no value among the measured requests is absent.
	Quantiles map[string][3]float64
}
