package armtest

import (
	"math"
	"math/rand/v2"

	"benchlens/analysis/compare"
	"benchlens/model"
)

// MixedRun is a deterministic run of n requests for the chart tests: TTFT around ttftMs, gaps
// around gapMs, input lengths cycling through 128, 512 and 2048 tokens, every tenth request
// with an error.
func MixedRun(id int64, seed uint64, n int, ttftMs, gapMs float64) *model.Run {
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

// Util is a utilisation trace of two devices sampled every second for 90 s: sustained high,
// or intermittent with idle gaps; one sample is missing.
func Util(seed uint64, intermittent bool) *model.UtilEvidence {
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

// MixedArms are a baseline and a faster-prefill candidate of two MixedRuns each, with
// utilisation.
func MixedArms() (compare.Arm, compare.Arm) {
	base := compare.Arm{Label: "fa-baseline"}
	cand := compare.Arm{Label: "fa-candidate"}
	for i := range 2 {
		base.Runs = append(base.Runs, compare.RunData{
			Run:  MixedRun(int64(1+i), uint64(10+i), 120, 80, 20),
			Util: []*model.UtilEvidence{Util(uint64(20+i), false)},
		})
		cand.Runs = append(cand.Runs, compare.RunData{
			Run:  MixedRun(int64(3+i), uint64(30+i), 120, 62, 20.6),
			Util: []*model.UtilEvidence{Util(uint64(40+i), true)},
		})
	}
	return base, cand
}
