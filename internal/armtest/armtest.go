// Package armtest builds the synthetic arms the analysis tests compare: runs of 120 requests
// with known timings, a server log, a profiler trace and a utilisation shape, so each rule of
// METHOD.md can be exercised by changing one field of a Spec.
package armtest

import (
	"cmp"
	"math"
	"math/rand/v2"
	"strings"

	"benchlens/analysis/compare"
	"benchlens/model"
)

// Spec describes a synthetic arm: its runs' timings and evidence.
type Spec struct {
	Label      string
	Runs       int
	TTFT, TPOT float64 // ms
	Manifest   model.Manifest
	Resolved   string // "" means no server log
	Target     string
	Fallback   string
	Copies     int // copies per step in the trace; -1 means no trace
	Shape      model.ShapeClass
	InputLen   func(i int) int // nil: 512 + (i*37)%1024, the same request set in every arm
	ColdStart  bool            // one request past the declared warm-up is slow
	Seed       uint64
	Model      string // the result file's model; "" means "m"
	// MaxConcurrency and RequestRate are the run's load point (0: unknown; RequestRate
	// defaults to +Inf, unthrottled).
	MaxConcurrency float64
	RequestRate    float64
}

// FullManifest records every required condition.
var FullManifest = model.Manifest{
	"stack_fingerprint": map[string]any{"base_stack_version": "CUDA 12.4", "driver_version": "550.54.15"},
	"hardware_sku":      "H100 x1",
	"node":              map[string]any{"machine": "lab-1", "numa": 0, "card_slot": 3},
	"workload":          map[string]any{"model_name": "m", "input_len": 1024, "output_len": 64, "seed": 1, "warmup_iters": 2},
}

// Baseline is five runs on FLASH_ATTN with one copy per step and a busy device.
func Baseline(label string, seed uint64) Spec {
	return Spec{Label: label, Runs: 5, TTFT: 60, TPOT: 12, Manifest: FullManifest, Resolved: "FLASH_ATTN",
		Target: "FLASH_ATTN", Copies: 1, Shape: model.ShapeSustainedHigh, Seed: seed}
}

// Candidate is Baseline on FLASHINFER, with change applied.
func Candidate(label string, seed uint64, change func(*Spec)) Spec {
	c := Baseline(label, seed)
	c.Resolved, c.Target = "FLASHINFER", "FLASHINFER"
	if change != nil {
		change(&c)
	}
	return c
}

// WithField returns m with one dotted field ("workload.seed") replaced.
func WithField(m model.Manifest, path string, v any) model.Manifest {
	keys := strings.Split(path, ".")
	out := model.Merge(nil, m)
	if len(keys) == 1 {
		out[keys[0]] = v
		return out
	}
	sec := map[string]any{}
	for k, x := range out[keys[0]].(map[string]any) {
		sec[k] = x
	}
	sec[keys[1]] = v
	out[keys[0]] = sec
	return out
}

// Build makes the arm; run ids count up from firstID.
func (a Spec) Build(firstID int64) compare.Arm {
	return compare.Arm{Label: a.Label, Runs: a.RunData(firstID)}
}

// RunData makes the arm's runs with their evidence.
func (a Spec) RunData(firstID int64) []compare.RunData {
	var out []compare.RunData
	rng := rand.New(rand.NewPCG(a.Seed+1, 7))
	for r := range a.Runs {
		run := model.NewRun("vllm")
		run.ID, run.Label, run.Model, run.Role = firstID+int64(r), a.Label, cmp.Or(a.Model, "m"), "other"
		run.Date, run.Era, run.Bundle = "2025-06-01T10:00:00", "G (vLLM >=0.10)", "bundles/"+a.Label
		run.Manifest = a.Manifest
		runNoise := 1 + 0.004*rng.NormFloat64()
		for i := range 120 {
			in := 512 + (i*37)%1024
			if a.InputLen != nil {
				in = a.InputLen(i)
			}
			ttft := a.TTFT * runNoise * (0.5 + float64(in)/2048) * (1 + 0.05*rng.NormFloat64()) / 1e3
			if i < 2 || (a.ColdStart && i == 2) {
				ttft *= 5 // warm-up (and, for ColdStart, one request past it)
			}
			gaps := make([]float64, 63)
			for g := range gaps {
				gaps[g] = a.TPOT * runNoise * (1 + 0.05*rng.NormFloat64()) / 1e3
			}
			run.Requests = append(run.Requests, model.Request{InputLen: in, OutputLen: 64, TTFT: ttft,
				TPOT: math.NaN(), Latency: math.NaN(), Start: math.NaN(), ITL: gaps})
		}
		run.NumPrompts, run.Completed, run.Failed = 120, 120, 0
		run.RequestRate = model.Num(math.Inf(1))
		if a.RequestRate > 0 {
			run.RequestRate = model.Num(a.RequestRate)
		}
		if a.MaxConcurrency > 0 {
			run.MaxConcurrency = model.Num(a.MaxConcurrency)
		}
		run.OutputThroughput = model.Num(1000 / a.TPOT / runNoise)
		run.SetStat(model.TTFT, "median", a.TTFT)
		run.SetStat(model.TTFT, "p99", a.TTFT*2)
		rd := compare.RunData{Run: run}
		if a.Resolved != "" {
			lg := &model.LogEvidence{Engine: "vllm", Resolved: a.Resolved, TargetBackend: a.Target, TargetSource: "flag",
				Processes: []model.ProcessBackend{{Tag: "EngineCore_DP0", Backend: a.Resolved,
					Line: model.Line{N: 40, Text: "Using " + a.Resolved + " backend."}}}}
			if a.Fallback != "" {
				lg.Fallbacks = []model.Line{{N: 38, Text: a.Fallback}}
			}
			rd.Logs = []*model.LogEvidence{lg}
		}
		if a.Copies >= 0 {
			rd.Traces = []*model.TraceEvidence{{Source: "kineto", Steps: 4,
				Copies:   map[string]model.CopyStat{"HtoD": {Count: 4 * a.Copies}},
				Launches: model.CallStat{Count: 96 + 4*a.Copies}, Syncs: model.CallStat{Count: 4 + 2*a.Copies},
				BusyFraction: model.Num(0.9), WindowUs: 40000,
				TopOps: []model.OpStat{{Name: "attn_" + a.Resolved, TimeUs: 900}, {Name: "gemm", TimeUs: 800}, {Name: "norm", TimeUs: 100}}}}
		}
		if a.Shape != "" {
			rd.Util = []*model.UtilEvidence{{Tool: "nvidia-smi", Devices: []model.DeviceSeries{{ID: "0",
				Shape: &model.Shape{Class: a.Shape, MedianBusy: 95}}}}}
		}
		out = append(out, rd)
	}
	return out
}

// Sweep is an arm that ran spec at each max concurrency, spec.Runs repeats per point; seeds
// and run ids differ per point. tpot, if set, gives the TPOT (ms) at a concurrency.
func Sweep(spec Spec, concurrency []float64, firstID int64, tpot func(c float64) float64) compare.Arm {
	var runs []compare.RunData
	for i, c := range concurrency {
		s := spec
		s.MaxConcurrency, s.Seed = c, spec.Seed+uint64(10*i)
		if tpot != nil {
			s.TPOT = tpot(c)
		}
		runs = append(runs, s.RunData(firstID+int64(len(runs)))...)
	}
	return compare.NewArm(spec.Label, runs)
}
