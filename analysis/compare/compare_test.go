package compare

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"benchlens/model"
)

// arm describes a synthetic arm: its runs' timings and evidence.
type arm struct {
	label      string
	runs       int
	ttft, tpot float64 // ms
	manifest   model.Manifest
	resolved   string // "" means no server log
	target     string
	fallback   string
	copies     int // copies per step in the trace; -1 means no trace
	shape      string
	inputLen   func(i int) int
	coldStart  bool
	seed       uint64
}

var fullManifest = model.Manifest{
	"stack_fingerprint": map[string]any{"base_stack_version": "CUDA 12.4", "driver_version": "550.54.15"},
	"hardware_sku":      "H100 x1",
	"node":              map[string]any{"machine": "lab-1", "numa": 0, "card_slot": 3},
	"workload":          map[string]any{"model_name": "m", "input_len": 1024, "output_len": 64, "seed": 1, "warmup_iters": 2},
}

// withField returns m with one dotted field replaced.
func withField(m model.Manifest, path string, v any) model.Manifest {
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

func (a arm) build(firstID int64) Arm {
	out := Arm{Label: a.label}
	rng := rand.New(rand.NewPCG(a.seed+1, 7))
	for r := range a.runs {
		run := model.NewRun("vllm")
		run.ID, run.Label, run.Model = firstID+int64(r), a.label, "m"
		run.Manifest = a.manifest
		runNoise := 1 + 0.004*rng.NormFloat64()
		for i := range 120 {
			in := 512 + (i*37)%1024 // the same request set in every arm
			if a.inputLen != nil {
				in = a.inputLen(i)
			}
			ttft := a.ttft * runNoise * (0.5 + float64(in)/2048) * (1 + 0.05*rng.NormFloat64()) / 1e3
			if i < 2 || (a.coldStart && i == 2) {
				ttft *= 5 // warm-up (and, for coldStart, one request past it)
			}
			gaps := make([]float64, 63)
			for g := range gaps {
				gaps[g] = a.tpot * runNoise * (1 + 0.05*rng.NormFloat64()) / 1e3
			}
			run.Requests = append(run.Requests, model.Request{InputLen: in, OutputLen: 64, TTFT: ttft,
				TPOT: math.NaN(), Latency: math.NaN(), Start: math.NaN(), ITL: gaps})
		}
		run.OutputThroughput = model.Num(1000 / a.tpot / runNoise)
		rd := RunData{Run: run}
		if a.resolved != "" {
			lg := &model.LogEvidence{Engine: "vllm", Resolved: a.resolved, TargetBackend: a.target, TargetSource: "flag",
				Processes: []model.ProcessBackend{{Tag: "EngineCore_DP0", Backend: a.resolved,
					Line: model.Line{N: 40, Text: "Using " + a.resolved + " backend."}}}}
			if a.fallback != "" {
				lg.Fallbacks = []model.Line{{N: 38, Text: a.fallback}}
			}
			rd.Logs = []*model.LogEvidence{lg}
		}
		if a.copies >= 0 {
			rd.Traces = []*model.TraceEvidence{{Steps: 4,
				Copies:   map[string]model.CopyStat{"HtoD": {Count: 4 * a.copies}},
				Launches: model.CallStat{Count: 96 + 4*a.copies}, Syncs: model.CallStat{Count: 4 + 2*a.copies},
				BusyFraction: model.Num(0.9), WindowUs: 40000,
				TopOps: []model.OpStat{{Name: "attn_" + a.resolved, TimeUs: 900}, {Name: "gemm", TimeUs: 800}, {Name: "norm", TimeUs: 100}}}}
		}
		if a.shape != "" {
			rd.Util = []*model.UtilEvidence{{Tool: "nvidia-smi", Devices: []model.DeviceSeries{{ID: "0",
				Shape: &model.Shape{Class: a.shape, MedianBusy: 95}}}}}
		}
		out.Runs = append(out.Runs, rd)
	}
	return out
}

var baseline = arm{label: "base", runs: 5, ttft: 60, tpot: 12, manifest: fullManifest, resolved: "FLASH_ATTN",
	target: "FLASH_ATTN", copies: 1, shape: model.ShapeSustainedHigh, seed: 1}

func candidate(change func(*arm)) arm {
	c := arm{label: "cand", runs: 5, ttft: 60, tpot: 12, manifest: fullManifest, resolved: "FLASHINFER",
		target: "FLASHINFER", copies: 1, shape: model.ShapeSustainedHigh, seed: 2}
	change(&c)
	return c
}

func codes(rec Record) []string { return rec.CauseCodes() }

// Every rule of METHOD.md, one synthetic pair each.
func TestVerdicts(t *testing.T) {
	tests := []struct {
		name   string
		cand   arm
		status string
		causes []string
	}{
		{"established: decode faster on the new path", candidate(func(a *arm) { a.tpot = 10.8 }), Established, nil},
		{"zero: path changed, nothing faster", candidate(func(a *arm) {}), Zero, []string{BottleneckNotInStage}},
		{"offset: prefill faster, decode slower, more copies", candidate(func(a *arm) {
			a.ttft, a.tpot, a.copies, a.shape = 54, 12.5, 4, model.ShapeIntermittent
		}), Offset, []string{OffsetByOverhead}},
		{"fallback: target not hit, path unchanged", candidate(func(a *arm) {
			a.resolved, a.tpot, a.fallback = "FLASH_ATTN", 11.6, "Some attention backends are not valid … Reasons: {FLASHINFER: [not installed]}"
		}), NotEstablished, []string{PathUnchanged, TargetNotHit}},
		{"driver changed", candidate(func(a *arm) {
			a.tpot, a.manifest = 11, withField(fullManifest, "stack_fingerprint.driver_version", "560.35.03")
		}), NotEstablished, []string{EnvironmentDiffers}},
		{"load drift: other request set", candidate(func(a *arm) {
			a.tpot, a.inputLen = 11, func(i int) int { return 256 + (i*17)%512 }
		}), NotEstablished, []string{LoadDrift}},
		{"too few repeats, no warm-up", candidate(func(a *arm) {
			a.tpot, a.runs, a.manifest = 10.8, 2, withField(fullManifest, "workload.warmup_iters", 0)
		}), NotEstablished, []string{MeasurementUncontrolled}},
		{"cold start past the declared warm-up", candidate(func(a *arm) { a.tpot, a.coldStart = 10.8, true }),
			NotEstablished, []string{MeasurementUncontrolled}},
		{"conditions unverified", candidate(func(a *arm) {
			a.tpot, a.manifest = 10.8, withField(fullManifest, "hardware_sku", nil)
		}), NotEstablished, []string{ConditionsUnverified}},
		{"no server log", candidate(func(a *arm) { a.tpot, a.resolved = 10.8, "" }), NotEstablished, []string{PathUnverified}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := Compare(baseline.build(1), tt.cand.build(100), DefaultSettings)
			got := codes(rec)
			want := slices.Clone(tt.causes)
			slices.Sort(want)
			if rec.Status != tt.status || !slices.Equal(got, want) {
				t.Errorf("status %s causes %v, want %s %v\n%+v", rec.Status, got, tt.status, want, rec.Causes)
			}
			for _, c := range rec.Causes {
				if c.Reason == "" || strings.Contains(c.Reason, "\n") {
					t.Errorf("cause %s needs a one-line reason: %q", c.Code, c.Reason)
				}
			}
		})
	}
}

func TestMixedPaths(t *testing.T) {
	cand := candidate(func(a *arm) { a.tpot = 10.8 }).build(100)
	cand.Runs[3].Logs[0].Resolved = "TRITON_ATTN"
	rec := Compare(baseline.build(1), cand, DefaultSettings)
	if rec.Status != NotEstablished || !slices.Contains(codes(rec), MixedPaths) {
		t.Errorf("status %s causes %v", rec.Status, codes(rec))
	}
}

func TestTargetNotHitQuotesTheFallbackLine(t *testing.T) {
	c := candidate(func(a *arm) { a.resolved, a.fallback = "TRITON_ATTN", "Cannot use FlashInfer backend: not installed" })
	rec := Compare(baseline.build(1), c.build(100), DefaultSettings)
	for _, cause := range rec.Causes {
		if cause.Code == TargetNotHit && !strings.Contains(cause.Reason, "line 38: Cannot use FlashInfer backend") {
			t.Errorf("reason %q does not quote the line", cause.Reason)
		}
	}
	if rec.Path.Changed == nil || !*rec.Path.Changed || rec.Path.TargetHit == nil || *rec.Path.TargetHit {
		t.Errorf("changed %v hit %v", rec.Path.Changed, rec.Path.TargetHit)
	}
}

// Identical arms never yield a significant change.
func TestIdenticalArmsNeverDiffer(t *testing.T) {
	for seed := range uint64(5) {
		a := baseline
		a.seed = seed
		arm := a.build(1)
		rec := Compare(arm, arm, DefaultSettings)
		for k, d := range rec.Perf {
			if d.Significant || !d.P.Known() && k != "e2e_throughput" {
				t.Errorf("seed %d %s: significant %v p %v", seed, k, d.Significant, d.P)
			}
		}
		for _, row := range rec.Buckets.Rows {
			for k, d := range row.Stages {
				if d.Significant {
					t.Errorf("seed %d bucket %s %s significant", seed, row.Bucket, k)
				}
			}
		}
	}
}

// Swapping baseline and candidate flips every delta's sign.
func TestSwapFlipsDeltas(t *testing.T) {
	b := baseline.build(1)
	c := candidate(func(a *arm) { a.ttft, a.tpot, a.copies = 54, 12.5, 4 }).build(100)
	ab, ba := Compare(b, c, DefaultSettings), Compare(c, b, DefaultSettings)
	for k, d := range ab.Perf {
		r := ba.Perf[k]
		if d.Delta.F() == 0 {
			continue
		}
		if math.Signbit(d.Delta.F()) == math.Signbit(r.Delta.F()) || d.Better != r.Worse || d.Worse != r.Better {
			t.Errorf("%s: %v / %v, better %v/%v", k, d.Delta, r.Delta, d.Better, r.Better)
		}
	}
	if ab.Overhead.ExtraCopy.Delta.F() != -ba.Overhead.ExtraCopy.Delta.F() {
		t.Error("overhead delta does not flip")
	}
}

func TestBuckets(t *testing.T) {
	rec := Compare(baseline.build(1), candidate(func(a *arm) { a.tpot = 10.8 }).build(100), DefaultSettings)
	if len(rec.Buckets.Rows) != 3 || rec.Buckets.OneLength || len(rec.Buckets.Edges) != 2 {
		t.Fatalf("buckets %+v", rec.Buckets)
	}
	if !slices.Equal(rec.Buckets.HoldsIn, []string{"short", "long", "mixed"}) {
		t.Errorf("holds in %v", rec.Buckets.HoldsIn)
	}
	one := func(a *arm) { a.tpot, a.inputLen = 10.8, func(int) int { return 1024 } }
	bl := baseline
	one(&bl)
	bl.tpot = 12
	rec = Compare(bl.build(1), candidate(one).build(100), DefaultSettings)
	if !rec.Buckets.OneLength || len(rec.Buckets.Rows) != 1 {
		t.Errorf("one length: %+v", rec.Buckets)
	}
	found := false
	for _, n := range rec.Notes {
		found = found || strings.Contains(n, "share one input length")
	}
	if !found {
		t.Errorf("notes %v", rec.Notes)
	}
}

func TestSingleRunComparedPerRequest(t *testing.T) {
	b, c := baseline, candidate(func(a *arm) { a.tpot = 10.8 })
	b.runs, c.runs = 1, 1
	rec := Compare(b.build(1), c.build(100), DefaultSettings)
	d := rec.Perf[model.TPOT]
	if !d.PerRequest || !d.Better || d.N != [2]int{118, 118} || !(d.CILow.F() < -5 && d.CIHigh.F() < 0) {
		t.Errorf("per request TPOT: %+v", d)
	}
	if rec.Status != NotEstablished || !slices.Contains(codes(rec), MeasurementUncontrolled) {
		t.Errorf("status %s causes %v", rec.Status, codes(rec))
	}
}

func TestChecklist(t *testing.T) {
	rec := Compare(baseline.build(1), candidate(func(a *arm) { a.tpot = 10.8 }).build(100), DefaultSettings)
	checks := rec.Checklist()
	if len(checks) != 6 {
		t.Fatalf("%d checks", len(checks))
	}
	for _, c := range checks {
		if c.State != CheckOK && c.Name != "stages" {
			t.Errorf("%s: %s (%s)", c.Name, c.State, c.Reason)
		}
		if rec.Status == Established && strings.Contains(c.Reason, "change the") {
			t.Errorf("%s: a remedy on an established gain: %s", c.Name, c.Reason)
		}
	}
}

// The conditions hint names what differs, not a generic list.
func TestConditionsHintNamesTheField(t *testing.T) {
	rec := Compare(baseline.build(1), candidate(func(a *arm) {
		a.tpot, a.manifest = 11, withField(fullManifest, "stack_fingerprint.driver_version", "560.35.03")
	}).build(100), DefaultSettings)
	c := rec.Checklist()[0]
	if c.Name != "conditions" || c.State != CheckFail || c.Hint != "repeat both arms with the same stack_fingerprint.driver_version" {
		t.Errorf("conditions check %+v", c)
	}
}

// Traces from different GPUs are flagged: their times do not compare.
func TestTracesFromDifferentDevicesWarn(t *testing.T) {
	b := baseline.build(1)
	c := candidate(func(a *arm) { a.tpot = 10.8 }).build(100)
	for _, rd := range b.Runs {
		rd.Traces[0].Device = "NVIDIA A100-PG509-200 rank 3"
	}
	for _, rd := range c.Runs {
		rd.Traces[0].Device = "Tesla V100-SXM2-16GB rank 1"
	}
	rec := Compare(b, c, DefaultSettings)
	if len(rec.Warnings) != 1 || !strings.Contains(rec.Warnings[0], "A100-PG509-200 vs Tesla V100") {
		t.Errorf("warnings %v", rec.Warnings)
	}
}

// Tails move with the latencies: a candidate 10 % faster in decode has its TPOT p90 and p99
// about 10 % lower too.
func TestTails(t *testing.T) {
	rec := Compare(baseline.build(1), candidate(func(a *arm) { a.tpot = 10.8 }).build(100), DefaultSettings)
	tail, ok := rec.Tails[model.TPOT]
	if !ok {
		t.Fatalf("no TPOT tail: %+v", rec.Tails)
	}
	for name, d := range map[string]model.Num{"p90": tail.P90Delta, "p99": tail.P99Delta} {
		if !d.Known() || d.F() > -7 || d.F() < -13 {
			t.Errorf("TPOT %s delta %v %%, want about -10 %%", name, d)
		}
	}
}
