package slo

import (
	"math"
	"strings"
	"testing"

	"benchlens/model"
)

func mustSLO(t *testing.T, s string) model.SLO {
	t.Helper()
	o, err := model.ParseSLO(s)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// req is a successful request: TTFT and each gap in ms, issued at start s.
func req(start, ttftMS float64, gapsMS ...float64) model.Request {
	q := model.Request{InputLen: 100, OutputLen: len(gapsMS) + 1, TTFT: ttftMS / 1e3, TPOT: math.NaN(), Latency: math.NaN(), Start: start, ITL: []float64{}}
	for _, g := range gapsMS {
		q.ITL = append(q.ITL, g/1e3)
	}
	return q
}

func runOf(reqs ...model.Request) *model.Run {
	r := model.NewRun("vllm-bench")
	r.ID, r.DurationS, r.Requests = 1, 10, reqs
	return r
}

func TestJudgeCountsEveryLimitAndFailures(t *testing.T) {
	reqs := []model.Request{
		req(0, 100, 20, 20),  // meets both
		req(1, 250, 20, 20),  // over TTFT
		req(2, 100, 40, 40),  // over TPOT (40 ms per token after the first)
		req(3, 300, 50, 50),  // over both
		req(4, 200, 30, 30),  // at both limits: meets them (<=)
		{Error: "timeout"},   // failed: a miss
		req(6, 50),           // one output token: no decode, TPOT 0, meets
		req(7, 10, 100, 100), // TPOT over
	}
	res := Judge(Input{Run: runOf(reqs...), Requests: reqs}, mustSLO(t, "ttft<=200,tpot<=30"))
	if res.From != "requests" || res.Requests != 8 || res.Good != 3 || res.Failed != 1 {
		t.Fatalf("%+v", res)
	}
	if res.Over[model.TTFT] != 2 || res.Over[model.TPOT] != 3 {
		t.Errorf("over %v, want ttft 2, tpot 3", res.Over)
	}
	if res.Attainment.F() != 3.0/8 || math.Abs(res.Goodput.F()-0.3) > 1e-12 {
		t.Errorf("attainment %v goodput %v, want 0.375 and 3 per 10 s", res.Attainment, res.Goodput)
	}
	// ITL is each request's mean gap, E2E its latency (TTFT plus gaps without a latency).
	res = Judge(Input{Run: runOf(reqs...), Requests: reqs}, mustSLO(t, "itl<=30,e2el<=300"))
	if res.Good != 4 || res.Over[model.ITL] != 3 || res.Over[model.E2EL] != 1 { // requests 0, 1 (290 ms), 4 (260 ms) and 6
		t.Errorf("itl<=30,e2el<=300: %d good, want 4 (%+v)", res.Good, res)
	}
}

func TestJudgeWithoutTheLatencyIsNotComputable(t *testing.T) {
	q := req(0, 100, 10)
	q.TTFT = math.NaN() // a non-streamed request has no TTFT
	res := Judge(Input{Run: runOf(q), Requests: []model.Request{q}}, mustSLO(t, "ttft<=200"))
	if res.Computable() || !strings.Contains(res.Why, "1 of 1 requests have no TTFT") {
		t.Errorf("%+v", res)
	}
	r := runOf()
	res = Judge(Input{Run: r}, mustSLO(t, "ttft<=200"))
	if res.Computable() || res.Why != "no per-request data, and vllm-bench states no SLO" {
		t.Errorf("why %q", res.Why)
	}
}

// A summary-only vLLM file's request_goodput counts when the lab states the --goodput it ran
// with; AIPerf's input_config states its own.
func TestJudgeUsesTheToolsGoodputForTheSameSLO(t *testing.T) {
	r := runOf()
	r.Goodput, r.Completed, r.Failed = model.Num(4), model.Num(50), model.Num(0)
	r.Manifest = model.Manifest{"slo": "ttft:200 tpot:30"}
	res := Judge(Input{Run: r}, mustSLO(t, "ttft<=200,tpot<=30"))
	if res.From != "tool: bundle.yaml slo" || res.Goodput.F() != 4 || res.Attainment.F() != 0.8 {
		t.Errorf("%+v", res)
	}
	res = Judge(Input{Run: r}, mustSLO(t, "ttft<=100,tpot<=30"))
	if res.Computable() || !strings.Contains(res.Why, "goodput is for ttft<=200,tpot<=30 (bundle.yaml slo)") {
		t.Errorf("another SLO: %+v", res)
	}

	a := model.NewRun("aiperf")
	a.Goodput, a.Completed, a.Failed, a.DurationS = model.Num(6.8), model.Num(2044), model.Num(0), model.Num(300)
	a.Extra = map[string]any{
		"input_config":       map[string]any{"slos": map[string]any{"time_to_first_token": 1500.0, "inter_token_latency": 300.0}},
		"good_request_count": map[string]any{"avg": 2000.0},
	}
	res = Judge(Input{Run: a}, mustSLO(t, "ttft<=1500,tpot<=300"))
	if res.From != "tool: AIPerf input_config.slos" || res.Attainment.F() != 2000.0/2044 || res.Goodput.F() != 6.8 {
		t.Errorf("aiperf: %+v", res)
	}
}

func TestSaturation(t *testing.T) {
	// The client was asked for 20 req/s and issued 12.
	var reqs []model.Request
	for i := range 40 {
		reqs = append(reqs, req(float64(i)/12, 80, 10))
	}
	r := runOf(reqs...)
	r.RequestRate = 20
	s := Judge(Input{Run: r, Requests: reqs}, nil).Saturation
	if !s.Saturated || len(s.Reasons) != 1 || !strings.HasPrefix(s.Reasons[0], "achieved 12 of 20 req/s requested (60 %") {
		t.Errorf("rate: %+v", s)
	}
	// With a concurrency cap, the cap held the rate back: no saturation, a note.
	r.MaxConcurrency = 1
	if s := Judge(Input{Run: r, Requests: reqs}, nil).Saturation; s.Saturated || !strings.Contains(s.Note, "concurrency cap of 1 bound first") {
		t.Errorf("capped: %+v", s)
	}

	// TTFT rising with start time: queueing.
	reqs = nil
	for i := range 30 {
		reqs = append(reqs, req(float64(i), 50+10*float64(i)+float64(i%3), 10))
	}
	r = runOf(reqs...)
	if s := Judge(Input{Run: r, Requests: reqs}, nil).Saturation; !s.Saturated || s.TTFTRho.F() < 0.99 || !strings.Contains(s.Reasons[0], "TTFT rises with request start time") {
		t.Errorf("trend: %+v", s)
	}
	// A flat TTFT is not.
	for i := range reqs {
		reqs[i].TTFT = 0.05 + 0.001*float64(i%5)
	}
	if s := Judge(Input{Run: r, Requests: reqs}, nil).Saturation; s.Saturated {
		t.Errorf("flat: %+v", s)
	}
}

func TestQueueGrowingInTheRunsWindow(t *testing.T) {
	r := runOf()
	r.Date, r.DurationS = "2025-04-16T08:25:00", 60 // vLLM dates the file at the end
	q := func(line int, tm string, waiting int) model.QueueSample {
		return model.QueueSample{Line: line, Time: "04-16 " + tm, Engine: "Engine 000", Running: 64, Waiting: waiting}
	}
	samples := []model.QueueSample{
		q(10, "08:20:00", 50), // another run, before this one: not read
		q(20, "08:24:05", 0), q(21, "08:24:15", 3), q(22, "08:24:25", 9), q(23, "08:24:35", 15), q(24, "08:24:45", 22),
		q(30, "08:30:00", 0),
	}
	s := Judge(Input{Run: r, Queue: samples}, nil).Saturation
	if !s.Saturated || !strings.Contains(s.Queue, "Engine 000: waiting 0 → 22 requests over 5 scheduler lines (lines 20-24)") {
		t.Errorf("%+v", s)
	}
	for i := range samples {
		samples[i].Waiting = 0
	}
	if s := Judge(Input{Run: r, Queue: samples}, nil).Saturation; s.Saturated {
		t.Errorf("an empty queue: %+v", s)
	}
}

func TestCapacityInterpolatesAndBounds(t *testing.T) {
	loads := []float64{1, 4, 16, 32}
	for _, c := range []struct {
		att   []float64
		want  float64
		bound string
	}{
		{[]float64{1, 0.98, 0.62, 0.04}, 4 + (0.98-0.9)/(0.98-0.62)*12, ""},
		{[]float64{1, 1, 0.95, 0.91}, 32, "above"},
		{[]float64{0.5, 0.4, 0.2, 0.1}, 1, "below"},
		{[]float64{1, 0.8, 0.95, 0.5}, 16 + (0.95-0.9)/(0.95-0.5)*16, ""}, // the highest load that keeps the target
	} {
		v, b := at(loads, c.att, 0.9)
		if math.Abs(v.F()-c.want) > 1e-12 || b != c.bound {
			t.Errorf("%v: capacity %v %q, want %v %q", c.att, v, b, c.want, c.bound)
		}
	}
}

// pointOf is a matched point at concurrency c with per-run attainments of each arm.
func pointOf(c float64, base, cand []float64) PointInput {
	runs := func(xs []float64) []RunResult {
		var out []RunResult
		for i, x := range xs {
			out = append(out, RunResult{Run: int64(i), Attainment: model.Num(x), Goodput: model.Num(10 * x), From: "requests",
				Requests: 100, Good: int(100 * x), PerGPU: model.Num(100 * c), PerUser: model.Num(100 / c), GPUsKnown: true})
		}
		return out
	}
	pt := model.LoadPoint{MaxConcurrency: model.Num(c), RequestRate: model.Num(math.Inf(1))}
	return PointInput{Label: "concurrency " + model.FormatNum(model.Num(c)), Point: pt, Baseline: runs(base), Candidate: runs(cand)}
}

var testSettings = Settings{Target: 0.9, Alpha: 0.05, NoiseFloor: 0.01, Confidence: 0.95, Bootstrap: 500}

func TestCompareSweep(t *testing.T) {
	points := []PointInput{
		pointOf(1, []float64{1, 1, 0.99, 1, 1}, []float64{1, 1, 1, 0.99, 1}),
		pointOf(8, []float64{0.5, 0.52, 0.49, 0.51, 0.53}, []float64{0.75, 0.74, 0.77, 0.76, 0.73}),
		pointOf(16, []float64{0.2, 0.21, 0.19, 0.22, 0.18}, []float64{0.4, 0.41, 0.39, 0.42, 0.38}),
	}
	sec := Compare(mustSLO(t, "ttft<=200,tpot<=30"), points, testSettings)
	if d := sec.Points[1].Attainment; !d.Better || math.Abs(d.Delta.F()-24) > 1e-9 || d.P.F() > 0.01 || d.Unit != "pp" {
		t.Errorf("c=8: %+v", d)
	}
	if d := sec.Points[0].Attainment; d.Significant {
		t.Errorf("c=1 is no change: %+v", d)
	}
	g, ok := sec.Gain()
	if !ok || g.Where != "c=8–16" || math.Abs(g.Baseline-0.355) > 1e-9 || math.Abs(g.Candidate-0.575) > 1e-9 {
		t.Errorf("gain %+v", g)
	}
	c := sec.Capacity
	if c == nil || c.Axis != "concurrency" || c.Baseline.Bound != "" {
		t.Fatalf("capacity %+v", c)
	}
	wantB := 1 + (1-0.9)/(1-0.51)*7
	wantC := 1 + (1-0.9)/(1-0.75)*7
	if math.Abs(c.Baseline.Value.F()-wantB) > 1e-9 || math.Abs(c.Candidate.Value.F()-wantC) > 1e-9 {
		t.Errorf("capacity %v → %v, want %v → %v", c.Baseline.Value, c.Candidate.Value, wantB, wantC)
	}
	if !(c.CILow.F() <= c.Delta.F() && c.Delta.F() <= c.CIHigh.F()) || c.CILow.F() <= 0 {
		t.Errorf("capacity change %v [%v, %v]", c.Delta, c.CILow, c.CIHigh)
	}
	// Per GPU rises and per user falls with concurrency: every point is on the frontier.
	for _, p := range sec.Pareto.Baseline {
		if !p.Frontier {
			t.Errorf("pareto %+v", p)
		}
	}
}

func TestFrontier(t *testing.T) {
	ps := []ParetoPoint{{Label: "a", PerUser: 100, PerGPU: 50}, {Label: "b", PerUser: 50, PerGPU: 200},
		{Label: "c", PerUser: 40, PerGPU: 150}, {Label: "d", PerUser: 100, PerGPU: 40}}
	frontier(ps)
	for i, want := range []bool{true, true, false, false} {
		if ps[i].Frontier != want {
			t.Errorf("%s frontier %v, want %v", ps[i].Label, ps[i].Frontier, want)
		}
	}
}

// With one run per arm, attainment is compared request by request: pass or miss.
func TestAttainmentPerRequest(t *testing.T) {
	one := func(good, n int) []RunResult {
		return []RunResult{{Attainment: model.Num(float64(good) / float64(n)), From: "requests", Requests: n, Good: good}}
	}
	d := attainmentDelta(one(50, 100), one(75, 100), testSettings)
	if !d.PerRequest || !d.Better || math.Abs(d.Delta.F()-25) > 1e-9 || d.N != [2]int{100, 100} || d.P.F() > 0.001 {
		t.Errorf("%+v", d)
	}
	if !(d.CILow.F() < 25 && d.CIHigh.F() > 25) {
		t.Errorf("interval [%v, %v]", d.CILow, d.CIHigh)
	}
}
