package result

import (
	"fmt"
	"math"
	"sort"
	"time"

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
	// Beyond a day (1e300 s, Infinity): no request runs that long.
	huge := func(what string, get func(r *model.Request) []float64) {
		n, highest := 0, 0.0
		for i := range run.Requests {
			bad := false
			for _, v := range get(&run.Requests[i]) {
				if v > maxLatency {
					bad, highest = true, max(highest, v)
				}
			}
			if bad {
				n++
			}
		}
		if n > 0 {
			found = append(found, fmt.Sprintf("%d requests with a %s beyond a day (highest %s s)", n, what, msText(highest)))
		}
	}
	huge("TTFT", func(r *model.Request) []float64 { return []float64{r.TTFT} })
	huge("TPOT", func(r *model.Request) []float64 { return []float64{r.TPOT} })
	huge("latency", func(r *model.Request) []float64 { return []float64{r.Latency} })
	huge("inter-token gap", func(r *model.Request) []float64 { return r.ITL })
	found = append(found, implausibleHeader(run, time.Now())...)
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
		run.Warnings = append(run.Warnings, model.Warn(model.WarnImplausible, f))
	}
}

// implausibleHeader finds what no run can have measured in the run's own figures: negative
// counts, more completed requests than were sent, a negative or absurd duration or
// throughput, a date in the future (beyond a day of clock and zone slack).
func implausibleHeader(run *model.Run, now time.Time) []string {
	var found []string
	for _, c := range []struct {
		name string
		v    model.Num
	}{{"num_prompts", run.NumPrompts}, {"completed", run.Completed}, {"failed", run.Failed},
		{"total_input_tokens", run.TotalInputTokens}, {"total_output_tokens", run.TotalOutputTokens}} {
		if c.v.Known() && c.v < 0 {
			found = append(found, fmt.Sprintf("%s is %s, a negative count", c.name, msText(c.v.F())))
		}
	}
	if run.Completed.Known() && run.NumPrompts.Known() && run.NumPrompts > 0 && run.Completed > run.NumPrompts {
		found = append(found, fmt.Sprintf("completed %s of num_prompts %s: more requests succeeded than were sent", msText(run.Completed.F()), msText(run.NumPrompts.F())))
	}
	if d := run.DurationS; d.Known() && (d < 0 || d.F() > maxDuration) {
		found = append(found, fmt.Sprintf("duration is %s s", msText(d.F())))
	}
	for _, t := range []struct {
		name string
		v    model.Num
	}{{"request_throughput", run.RequestThroughput}, {"request_goodput", run.Goodput}, {"input_throughput", run.InputThroughput},
		{"output_throughput", run.OutputThroughput}, {"total_token_throughput", run.TotalTokenThroughput}} {
		if t.v.Known() && (t.v < 0 || t.v.F() > maxThroughput) {
			found = append(found, fmt.Sprintf("%s is %s per second", t.name, msText(t.v.F())))
		}
	}
	if when, ok := runDate(run.Date); ok && when.After(now.Add(24*time.Hour)) {
		found = append(found, fmt.Sprintf("dated %s, in the future", run.Date))
	}
	return found
}

// runDate reads a run's ISO 8601 date, with or without a zone (UTC then).
func runDate(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// maxDuration (seconds, 30 days) is longer than any benchmark runs; maxThroughput (per
// second, requests or tokens) is beyond any serving system.
const (
	maxDuration   = 30 * 86400
	maxThroughput = 1e9
)

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
	run.Warnings = append(run.Warnings, model.Warn(model.WarnNoSuccess))
}
