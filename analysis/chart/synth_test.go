package chart_test

import (
	"math"
	"math/rand/v2"

	"benchlens/analysis/compare"
	"benchlens/model"
)

// synthRun is a deterministic run of n requests: TTFT around ttftMs, gaps around gapMs, input
// lengths cycling through 128, 512 and 2048 tokens, every tenth request with an error.
func synthRun(id int64, seed uint64, n int, ttftMs, gapMs float64) *model.Run {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	r := model.NewRun("vllm")
	r.ID = id
	lens := []int{128, 512, 2048}
	for i := range n {
		in := lens[i%3]
		q := model.Request{InputLen: in, OutputLen: 16, TPOT: math.NaN(), Start: float64(i) * 0.1}
		q.TTFT = (ttftMs*(0.6+0.4*float64(in)/2048) + rng.ExpFloat64()*ttftMs*0.15) / 1e3
		lat := q.TTFT
		for range 15 {
			g := (gapMs + rng.NormFloat64()*gapMs*0.08) / 1e3
			q.ITL = append(q.ITL, g)
			lat += g
		}
		q.Latency = lat
		if i%10 == 9 {
			q.Error = "timeout"
		}
		r.Requests = append(r.Requests, q)
	}
	return r
}

// synthUtil is a utilisation trace of two devices sampled every second for 90 s: sustained
// high, or intermittent with idle gaps; one sample is missing.
func synthUtil(seed uint64, intermittent bool) *model.UtilEvidence {
	rng := rand.New(rand.NewPCG(seed, 7))
	u := &model.UtilEvidence{Tool: "npu-smi watch"}
	for dev := range 2 {
		d := model.DeviceSeries{ID: string(rune('0' + dev))}
		for s := range 90 {
			d.T = append(d.T, float64(s))
			busy := 88 + rng.NormFloat64()*4
			if intermittent && (s/6)%3 == 2 {
				busy = 3 + rng.Float64()*4
			}
			if s == 40 {
				busy = math.NaN()
			}
			d.Busy = append(d.Busy, min(100, max(0, busy)))
		}
		class := model.ShapeSustainedHigh
		if intermittent {
			class = model.ShapeIntermittent
		}
		d.Shape = &model.Shape{Class: class}
		u.Devices = append(u.Devices, d)
	}
	return u
}

// synthArms are a baseline and a faster-prefill candidate of two runs each, with utilisation.
func synthArms() (compare.Arm, compare.Arm) {
	base := compare.Arm{Label: "fa-baseline"}
	cand := compare.Arm{Label: "fa-candidate"}
	for i := range 2 {
		base.Runs = append(base.Runs, compare.RunData{
			Run:  synthRun(int64(1+i), uint64(10+i), 120, 80, 20),
			Util: []*model.UtilEvidence{synthUtil(uint64(20+i), false)},
		})
		cand.Runs = append(cand.Runs, compare.RunData{
			Run:  synthRun(int64(3+i), uint64(30+i), 120, 62, 20.6),
			Util: []*model.UtilEvidence{synthUtil(uint64(40+i), true)},
		})
	}
	return base, cand
}

func sd(delta, lo, hi float64, better, worse bool) compare.StageDelta {
	return compare.StageDelta{
		Delta: model.Num(delta), CILow: model.Num(lo), CIHigh: model.Num(hi),
		Significant: better || worse, Better: better, Worse: worse,
	}
}

// synthRecord is a hand-made record: every outcome (better, worse, ~, unknown) appears.
func synthRecord() compare.Record {
	rec := compare.Record{
		Perf: map[string]compare.StageDelta{
			model.TTFT:       sd(-21.4, -25.2, -17.9, true, false),
			model.TPOT:       sd(2.6, 1.4, 3.9, false, true),
			model.ITL:        sd(0.4, -0.8, 1.7, false, false),
			model.E2EL:       sd(-4.2, -6.8, -1.1, true, false),
			"e2e_throughput": sd(3.1, -0.5, 6.4, false, false),
		},
		Settings: compare.DefaultSettings,
	}
	rec.Buckets = compare.Buckets{
		Edges: []float64{128, 512},
		Rows: []compare.BucketResult{
			{Bucket: "mixed", Stages: map[string]compare.StageDelta{
				model.TTFT: rec.Perf[model.TTFT], model.TPOT: rec.Perf[model.TPOT], model.ITL: rec.Perf[model.ITL]}},
			{Bucket: "short", Stages: map[string]compare.StageDelta{
				model.TTFT: sd(-6.1, -12.0, 0.3, false, false),
				model.TPOT: sd(1.2, -0.6, 3.1, false, false),
				model.ITL:  {Delta: model.Unknown, CILow: model.Unknown, CIHigh: model.Unknown}}},
			{Bucket: "long", Stages: map[string]compare.StageDelta{
				model.TTFT: sd(-31.5, -36.0, -27.2, true, false),
				model.TPOT: sd(3.8, 2.0, 5.5, false, true),
				model.ITL:  sd(0.9, -0.9, 2.6, false, false)}},
		},
	}
	return rec
}
