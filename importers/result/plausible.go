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
	// One pass over the requests tallies each latency's negative and huge values (beyond a
	// day: 1e300 s, Infinity; no request runs that long): the 112 MB result's 5.1 M gaps were
	// read twice through a closure each, 30 ms of its parse.
	var neg, huge [4]tally // TTFT, TPOT, latency, gaps
	for i := range run.Requests {
		r := &run.Requests[i]
		for j, v := range [3]float64{r.TTFT, r.TPOT, r.Latency} {
			neg[j].add(v < 0, v)
			huge[j].add(v > maxLatency, v)
		}
		lowest, highest := math.Inf(1), 0.0
		for _, v := range r.ITL {
			if v < 0 || v > maxLatency { // rarely: the branch costs nothing
				lowest, highest = min(lowest, v), max(highest, v)
			}
		}
		neg[3].add(lowest < 0, lowest)
		huge[3].add(highest > maxLatency, highest)
	}
	var found []string
	whats := [4]string{"TTFT", "TPOT", "latency", "inter-token gap"}
	for j, t := range neg {
		if t.n > 0 {
			found = append(found, fmt.Sprintf("%d requests with a negative %s (lowest %.2f ms)", t.n, whats[j], t.lowest*1000))
		}
	}
	for j, t := range huge {
		if t.n > 0 {
			found = append(found, fmt.Sprintf("%d requests with a %s beyond a day (highest %s s)", t.n, whats[j], msText(t.highest)))
		}
	}
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

// tally counts the requests with an implausible value of one latency, and the most extreme.
type tally struct {
	n               int
	lowest, highest float64
}

func (t *tally) add(bad bool, v float64) {
	if !bad {
		return
	}
	if t.n == 0 {
		t.lowest, t.highest = v, v
	}
	t.n++
	t.lowest, t.highest = min(t.lowest, v), max(t.highest, v)
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
