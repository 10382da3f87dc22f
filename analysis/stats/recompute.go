package stats

import (
	"math"

	"benchlens/model"
)

// Recompute fills run.Recomputed from its per-request samples with vLLM's definitions: TTFT
// and ITL over successful requests (ITL pooled over every gap), TPOT per request excluding the
// first token and only for requests with more than one output token, E2EL per request. Besides
// the default statistics it computes every statistic the tool itself reported, so the two can
// be set side by side. Warm-up requests are not dropped here: that is the analysis' choice.
func Recompute(run *model.Run) {
	if len(run.Requests) == 0 {
		return
	}
	var ttft, tpot, e2el, itl []float64
	gaps := 0
	for i := range run.Requests {
		gaps += len(run.Requests[i].ITL)
	}
	if gaps > 0 {
		itl = make([]float64, 0, gaps)
	}
	for i := range run.Requests {
		r := &run.Requests[i]
		if !r.OK() {
			continue
		}
		if ok(r.TTFT) {
			ttft = append(ttft, r.TTFT*1e3)
		}
		for _, g := range r.ITL {
			itl = append(itl, g*1e3)
		}
		if t := RequestTPOT(r); ok(t) {
			tpot = append(tpot, t*1e3)
		}
		if l := RequestLatency(r); ok(l) {
			e2el = append(e2el, l*1e3)
		}
	}
	run.Recomputed = map[string]model.Stats{}
	for metric, xs := range map[string][]float64{model.TTFT: ttft, model.TPOT: tpot, model.ITL: itl, model.E2EL: e2el} {
		if s := Summarise(xs, statNames(run.Summary[metric])); s != nil {
			run.Recomputed[metric] = s
		}
	}
}

// RequestTPOT is a request's time per output token after the first, in seconds: the tool's
// own when it recorded one, else (latency - ttft) / (output_len - 1), with the latency taken
// from the gaps when the file has no latency. NaN when it cannot be known.
func RequestTPOT(r *model.Request) float64 {
	if ok(r.TPOT) {
		return r.TPOT
	}
	if r.OutputLen <= 1 || !ok(r.TTFT) {
		return math.NaN()
	}
	lat := RequestLatency(r)
	if !ok(lat) {
		return math.NaN()
	}
	return (lat - r.TTFT) / float64(r.OutputLen-1)
}

// RequestLatency is the end-to-end latency in seconds: recorded, or TTFT plus every gap.
func RequestLatency(r *model.Request) float64 {
	if ok(r.Latency) {
		return r.Latency
	}
	if !ok(r.TTFT) || r.ITL == nil {
		return math.NaN()
	}
	l := r.TTFT
	for _, g := range r.ITL {
		l += g
	}
	return l
}

func ok(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// statNames is the default set plus what the tool reported.
func statNames(own model.Stats) []string {
	names := append([]string(nil), DefaultStats...)
	for name := range own {
		found := false
		for _, n := range names {
			found = found || n == name
		}
		if !found {
			names = append(names, name)
		}
	}
	return names
}
