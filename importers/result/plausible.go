package result

import (
	"fmt"
	"math"
	"sort"

	"benchlens/model"
)

// flagImplausible warns on a run whose latencies are negative, per request or in the tool's
// own statistics, or whose own statistics are beyond a day (Infinity, 1e300): a clock that
// stepped back, a division by zero in the tool or a file edited by hand. The run is kept, as the
// file is, so the analyst can see it; the warning is stored with it.
func flagImplausible(run *model.Run) {
	var found []string
	perRequest := func(what string, get func(r *model.Request) []float64) {
		n, lowest := 0, math.Inf(1)
		for i := range run.Requests {
			bad := false
			for _, v := range get(&run.Requests[i]) {
				if v < 0 {
					bad, lowest = true, min(lowest, v)
				}
			}
			if bad {
				n++
			}
		}
		if n > 0 {
			found = append(found, fmt.Sprintf("%d requests with a negative %s (lowest %.2f ms)", n, what, lowest*1000))
		}
	}
	perRequest("TTFT", func(r *model.Request) []float64 { return []float64{r.TTFT} })
	perRequest("TPOT", func(r *model.Request) []float64 { return []float64{r.TPOT} })
	perRequest("latency", func(r *model.Request) []float64 { return []float64{r.Latency} })
	perRequest("inter-token gap", func(r *model.Request) []float64 { return r.ITL })
	metrics := make([]string, 0, len(run.Summary))
	for m := range run.Summary {
		metrics = append(metrics, m)
	}
	sort.Strings(metrics)
	for _, m := range metrics {
		stats := run.Summary[m]
		keys := make([]string, 0, len(stats))
		for k, v := range stats {
			if v.Known() && (v < 0 || v.F() > maxLatency*1000) {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			found = append(found, fmt.Sprintf("the tool's %s %s is %s ms", m, k, msText(stats[k].F())))
		}
	}
	for _, f := range found {
		run.Warnings = append(run.Warnings, model.ImplausiblePrefix+f)
	}
}

// maxLatency (seconds) is longer than any benchmark request runs: beyond it a value is broken.
const maxLatency = 86400

// msText prints a milliseconds value with two decimals, or in e-notation when it is too
// large for that to be readable.
func msText(v float64) string {
	if math.Abs(v) >= 1e9 {
		return fmt.Sprintf("%.3g", v)
	}
	return fmt.Sprintf("%.2f", v)
}

// dropNoSuccessLatencies leaves out the latency statistics of a run in which no request
// succeeded: tools write zeros there (vLLM's np.mean(ttfts or 0)), which would read as a
// 100% faster arm. The run's counts and throughput stay.
func dropNoSuccessLatencies(run *model.Run) {
	if !run.Completed.Known() || run.Completed != 0 || len(run.Summary) == 0 {
		return
	}
	run.Summary = map[string]model.Stats{}
	run.Warnings = append(run.Warnings, "no request succeeded: the tool's latency statistics (zeros, not measurements) are left out")
}
