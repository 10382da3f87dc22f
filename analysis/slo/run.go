// Package slo judges benchmark runs against a service-level objective (METHOD.md rule 14):
// per run the share of its requests that meet every limit (attainment), their rate (goodput)
// and whether its load point was saturated; per comparison each arm's attainment and goodput
// per load point with the change tested across runs as rule 2 tests a stage, the capacity
// under the SLO of a sweep, and the Pareto frontier of output throughput per GPU against
// throughput per user. Pure functions over records: no I/O, no database, no Fyne.
package slo

import (
	"fmt"
	"math"
	"strings"

	"benchlens/analysis/stats"
	"benchlens/model"
)

// Input is one run as the SLO reads it.
type Input struct {
	Run *model.Run
	// Requests are the requests rule 2 keeps: the declared warm-up dropped, in issue order
	// (compare.Measured); none for a run without per-request data.
	Requests []model.Request
	// Queue is the scheduler lines of the run's server logs (rule 14's server metrics).
	Queue []model.QueueSample
	GPUs  int // devices serving the run, 0 when unknown
}

// RunResult is one run judged against an SLO: a function of the run and the SLO alone, so a
// series of runs (history) can chart it too.
type RunResult struct {
	Run        int64     `json:"run" yaml:"run"`
	Attainment model.Num `json:"attainment" yaml:"attainment"` // share of the judged requests that met the SLO, 0-1
	Goodput    model.Num `json:"goodput" yaml:"goodput"`       // those requests per second of the run's duration
	Requests   int       `json:"requests" yaml:"requests"`     // requests judged, failed ones included
	Good       int       `json:"good" yaml:"good"`
	Failed     int       `json:"failed" yaml:"failed"` // failed requests: misses whatever their times
	// Over counts the successful requests over each limit (one request may be over several).
	Over map[string]int `json:"over,omitempty" yaml:"over,omitempty"`
	// From says where the figures come from: "requests" (judged one by one), or the tool's own
	// goodput for the same SLO ("tool: AIPerf input_config.slos").
	From string `json:"from,omitempty" yaml:"from,omitempty"`
	Why  string `json:"why,omitempty" yaml:"why,omitempty"` // why the SLO is not computable for the run

	Saturation Saturation `json:"saturation" yaml:"saturation"`

	// The run's place on the Pareto plane: output tok/s per GPU against tok/s per user.
	PerGPU    model.Num `json:"output_tok_s_per_gpu" yaml:"output_tok_s_per_gpu"`
	PerUser   model.Num `json:"output_tok_s_per_user" yaml:"output_tok_s_per_user"`
	GPUs      int       `json:"gpus" yaml:"gpus"`                                 // the divisor of PerGPU
	GPUsKnown bool      `json:"gpus_known,omitempty" yaml:"gpus_known,omitempty"` // false: 1 assumed (the per-GPU figure is per server)
}

// Computable reports whether the run has an attainment under the SLO.
func (r RunResult) Computable() bool { return r.Attainment.Known() }

// Judge judges one run against an SLO. Requests are judged one by one when the run has them;
// a run without them takes its tool's own goodput when the tool states the same SLO, and is
// not computable otherwise (Why says so).
func Judge(in Input, s model.SLO) (res RunResult) {
	r := in.Run
	res = RunResult{Run: r.ID, Attainment: model.Unknown, Goodput: model.Unknown, PerGPU: model.Unknown, PerUser: model.Unknown}
	res.Saturation = saturation(in)
	if len(s) == 0 { // saturation alone: the rest is the SLO section's
		res.Why = "no SLO set"
		return res
	}
	res.GPUs, res.GPUsKnown = max(in.GPUs, 1), in.GPUs > 0
	if r.OutputThroughput.Known() {
		res.PerGPU = model.Num(r.OutputThroughput.F() / float64(res.GPUs))
	}
	var tpots []float64 // each request's TPOT as the SLO judged it, for the per-user figure
	defer func() { res.PerUser = perUser(in, tpots) }()
	why := ""
	if len(in.Requests) > 0 {
		if judgeRequests(&res, in.Requests, s, &tpots) {
			res.From = "requests"
			res.Goodput = goodput(res.Good, r)
			return res
		}
		why = res.Why
	} else {
		switch {
		case r.Sampled != nil:
			why = fmt.Sprintf("the per-request records are a sample (%d of %d)", r.Sampled.Records, r.Sampled.Population)
		case len(r.Requests) > 0:
			why = "every per-request record is the declared warm-up"
		default:
			why = "no per-request data"
		}
	}
	res.Over, res.Requests, res.Good, res.Failed = nil, 0, 0, 0
	t, found := Stated(r)
	switch {
	case !found:
		res.Why = why + ", and " + toolName(r) + " states no SLO"
	case !t.SLO.Equal(s):
		res.Why = fmt.Sprintf("%s, and %s's goodput is for %s", why, toolName(r), t.Objective())
	case !t.Attainment.Known() && !t.Goodput.Known():
		res.Why = fmt.Sprintf("%s, and %s states the SLO (%s) but no goodput", why, toolName(r), t.From)
	default:
		res.From = "tool: " + t.From
		res.Attainment, res.Goodput = t.Attainment, t.Goodput
	}
	return res
}

func toolName(r *model.Run) string {
	if r.Tool == "" {
		return "the tool"
	}
	return r.Tool
}

// judgeRequests counts the requests meeting the SLO; false (with Why) when a successful
// request lacks a latency the SLO limits, so it cannot be judged.
func judgeRequests(res *RunResult, reqs []model.Request, s model.SLO, tpots *[]float64) bool {
	res.Requests = len(reqs)
	res.Over = map[string]int{}
	unknown := map[string]int{}
	for i := range reqs {
		q := &reqs[i]
		if !q.OK() {
			res.Failed++
			continue
		}
		good := true
		for _, l := range s {
			v := Value(q, l.Metric)
			if l.Metric == model.TPOT {
				*tpots = append(*tpots, v)
			}
			switch {
			case math.IsNaN(v):
				unknown[l.Metric]++
				good = false
			case v > l.MS:
				res.Over[l.Metric]++
				good = false
			}
		}
		if good {
			res.Good++
		}
	}
	if len(unknown) > 0 {
		var parts []string
		for _, l := range s {
			if n := unknown[l.Metric]; n > 0 {
				parts = append(parts, fmt.Sprintf("%d of %d requests have no %s", n, len(reqs), strings.ToUpper(l.Metric)))
			}
		}
		res.Why = strings.Join(parts, ", ")
		return false
	}
	if res.Requests > 0 {
		res.Attainment = model.Num(float64(res.Good) / float64(res.Requests))
	}
	return true
}

// goodput is good requests per second of the run's duration (its duration_s; else the span
// of its records).
func goodput(good int, r *model.Run) model.Num {
	d := r.DurationS.F()
	if !(d > 0) {
		d = span(r.Requests)
	}
	if !(d > 0) {
		return model.Unknown
	}
	return model.Num(float64(good) / d)
}

// span is first start to last end of the records, in s; NaN without start times.
func span(reqs []model.Request) float64 {
	first, last := math.Inf(1), math.Inf(-1)
	for i := range reqs {
		q := &reqs[i]
		if math.IsNaN(q.Start) {
			return math.NaN()
		}
		first = math.Min(first, q.Start)
		end := q.Start
		if l := stats.RequestLatency(q); !math.IsNaN(l) {
			end += l
		}
		last = math.Max(last, end)
	}
	return last - first
}

// Value is a successful request's latency the SLO limits, in ms (NaN when the record does not
// say):
//   - ttft, e2el: as recorded (the latency as TTFT plus every gap when not recorded);
//   - tpot: the tool's own, else (E2E − TTFT) / (output tokens − 1), else the mean of its
//     gaps (METHOD.md rule 14); 0 for a single output token, which has no decode to be slow
//     (vLLM's goodput counts it so);
//   - itl: the mean of its gaps, as inference-perf's goodput judges ITL (0 without gaps for a
//     single output token).
func Value(q *model.Request, metric string) float64 {
	single := q.OutputLen == 0 || q.OutputLen == 1
	var v float64
	switch metric {
	case model.TTFT:
		v = q.TTFT
	case model.E2EL:
		v = stats.RequestLatency(q)
	case model.TPOT:
		v = stats.RequestTPOT(q)
		if math.IsNaN(v) && len(q.ITL) > 0 {
			v = meanGap(q.ITL)
		}
		if math.IsNaN(v) && single {
			v = 0
		}
	case model.ITL:
		v = math.NaN()
		switch {
		case len(q.ITL) > 0:
			v = meanGap(q.ITL)
		case single:
			v = 0
		}
	default:
		return math.NaN()
	}
	if math.IsInf(v, 0) {
		return math.NaN()
	}
	return v * 1e3
}

func meanGap(gaps []float64) float64 {
	var sum float64
	for _, g := range gaps {
		sum += g
	}
	return sum / float64(len(gaps))
}

// perUser is the output tokens per second one user sees: the median over the successful
// requests of 1 / TPOT (AIPerf's output_token_throughput_per_user; tpots are the TPOTs the SLO
// judged, in ms, when it limits TPOT), else 1000 / the run's median TPOT in ms.
func perUser(in Input, tpots []float64) model.Num {
	if tpots == nil {
		for i := range in.Requests {
			if q := &in.Requests[i]; q.OK() {
				tpots = append(tpots, Value(q, model.TPOT))
			}
		}
	}
	var xs []float64
	for _, t := range tpots {
		if t > 0 {
			xs = append(xs, 1e3/t)
		}
	}
	if len(xs) > 0 {
		return model.Num(stats.Median(xs))
	}
	if m, ok := in.Run.Stats(model.TPOT).Median(); ok && m.F() > 0 {
		return model.Num(1e3 / m.F())
	}
	return model.Unknown
}
