package compare_test

import (
	"benchlens/analysis/compare"
	"benchlens/internal/armtest"
	"math"
	"slices"
	"strings"
	"testing"

	"benchlens/model"
)

var baseline = armtest.Baseline("base", 1)

func candidate(change func(*armtest.Spec)) armtest.Spec {
	return armtest.Candidate("cand", 2, change)
}

func codes(rec compare.Record) []model.CauseCode { return rec.CauseCodes() }

// Every rule of METHOD.md, one synthetic pair each.
func TestVerdicts(t *testing.T) {
	tests := []struct {
		name   string
		cand   armtest.Spec
		status model.Status
		causes []model.CauseCode
	}{
		{"established: decode faster on the new path", candidate(func(a *armtest.Spec) { a.TPOT = 10.8 }), model.Established, nil},
		{"zero: path changed, nothing faster", candidate(func(a *armtest.Spec) {}), model.Zero, []model.CauseCode{model.BottleneckNotInStage}},
		{"offset: prefill faster, decode slower, more copies", candidate(func(a *armtest.Spec) {
			a.TTFT, a.TPOT, a.Copies, a.Shape = 54, 12.5, 4, model.ShapeIntermittent
		}), model.Offset, []model.CauseCode{model.OffsetByOverhead}},
		{"fallback: target not hit, path unchanged", candidate(func(a *armtest.Spec) {
			a.Resolved, a.TPOT, a.Fallback = "FLASH_ATTN", 11.6, "Some attention backends are not valid … Reasons: {FLASHINFER: [not installed]}"
		}), model.NotEstablished, []model.CauseCode{model.PathUnchanged, model.TargetNotHit}},
		{"driver changed", candidate(func(a *armtest.Spec) {
			a.TPOT, a.Manifest = 11, armtest.WithField(armtest.FullManifest, "stack_fingerprint.driver_version", "560.35.03")
		}), model.NotEstablished, []model.CauseCode{model.EnvironmentDiffers}},
		{"load drift: other request set", candidate(func(a *armtest.Spec) {
			a.TPOT, a.InputLen = 11, func(i int) int { return 256 + (i*17)%512 }
		}), model.NotEstablished, []model.CauseCode{model.LoadDrift}},
		{"too few repeats, no warm-up", candidate(func(a *armtest.Spec) {
			a.TPOT, a.Runs, a.Manifest = 10.8, 2, armtest.WithField(armtest.FullManifest, "workload.warmup_iters", 0)
		}), model.NotEstablished, []model.CauseCode{model.MeasurementUncontrolled}},
		{"cold start past the declared warm-up", candidate(func(a *armtest.Spec) { a.TPOT, a.ColdStart = 10.8, true }),
			model.NotEstablished, []model.CauseCode{model.MeasurementUncontrolled}},
		{"conditions unverified", candidate(func(a *armtest.Spec) {
			a.TPOT, a.Manifest = 10.8, armtest.WithField(armtest.FullManifest, "hardware_sku", nil)
		}), model.NotEstablished, []model.CauseCode{model.ConditionsUnverified}},
		{"no server log", candidate(func(a *armtest.Spec) { a.TPOT, a.Resolved = 10.8, "" }), model.NotEstablished, []model.CauseCode{model.PathUnverified}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := compare.Compare(baseline.Build(1), tt.cand.Build(100), compare.DefaultSettings)
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
	cand := candidate(func(a *armtest.Spec) { a.TPOT = 10.8 }).Build(100)
	cand.Runs[3].Logs[0].Resolved = "TRITON_ATTN"
	rec := compare.Compare(baseline.Build(1), cand, compare.DefaultSettings)
	if rec.Status != model.NotEstablished || !slices.Contains(codes(rec), model.MixedPaths) {
		t.Errorf("status %s causes %v", rec.Status, codes(rec))
	}
}

func TestTargetNotHitQuotesTheFallbackLine(t *testing.T) {
	c := candidate(func(a *armtest.Spec) {
		a.Resolved, a.Fallback = "TRITON_ATTN", "Cannot use FlashInfer backend: not installed"
	})
	rec := compare.Compare(baseline.Build(1), c.Build(100), compare.DefaultSettings)
	for _, cause := range rec.Causes {
		if cause.Code == model.TargetNotHit && !strings.Contains(cause.Reason, "line 38: Cannot use FlashInfer backend") {
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
		a.Seed = seed
		arm := a.Build(1)
		rec := compare.Compare(arm, arm, compare.DefaultSettings)
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
	b := baseline.Build(1)
	c := candidate(func(a *armtest.Spec) { a.TTFT, a.TPOT, a.Copies = 54, 12.5, 4 }).Build(100)
	ab, ba := compare.Compare(b, c, compare.DefaultSettings), compare.Compare(c, b, compare.DefaultSettings)
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
	rec := compare.Compare(baseline.Build(1), candidate(func(a *armtest.Spec) { a.TPOT = 10.8 }).Build(100), compare.DefaultSettings)
	if len(rec.Buckets.Rows) != 3 || rec.Buckets.OneLength || len(rec.Buckets.Edges) != 2 {
		t.Fatalf("buckets %+v", rec.Buckets)
	}
	if !slices.Equal(rec.Buckets.HoldsIn, []string{"short", "long", "mixed"}) {
		t.Errorf("holds in %v", rec.Buckets.HoldsIn)
	}
	one := func(a *armtest.Spec) { a.TPOT, a.InputLen = 10.8, func(int) int { return 1024 } }
	bl := baseline
	one(&bl)
	bl.TPOT = 12
	rec = compare.Compare(bl.Build(1), candidate(one).Build(100), compare.DefaultSettings)
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
	b, c := baseline, candidate(func(a *armtest.Spec) { a.TPOT = 10.8 })
	b.Runs, c.Runs = 1, 1
	rec := compare.Compare(b.Build(1), c.Build(100), compare.DefaultSettings)
	d := rec.Perf[model.TPOT]
	if !d.PerRequest || !d.Better || d.N != [2]int{118, 118} || !(d.CILow.F() < -5 && d.CIHigh.F() < 0) {
		t.Errorf("per request TPOT: %+v", d)
	}
	if rec.Status != model.NotEstablished || !slices.Contains(codes(rec), model.MeasurementUncontrolled) {
		t.Errorf("status %s causes %v", rec.Status, codes(rec))
	}
}

func TestChecklist(t *testing.T) {
	rec := compare.Compare(baseline.Build(1), candidate(func(a *armtest.Spec) { a.TPOT = 10.8 }).Build(100), compare.DefaultSettings)
	checks := rec.Checklist()
	if len(checks) != 6 {
		t.Fatalf("%d checks", len(checks))
	}
	for _, c := range checks {
		if c.State != model.CheckOK && c.Name != "stages" {
			t.Errorf("%s: %s (%s)", c.Name, c.State, c.Reason)
		}
		if rec.Status == model.Established && strings.Contains(c.Reason, "change the") {
			t.Errorf("%s: a remedy on an established gain: %s", c.Name, c.Reason)
		}
	}
}

// The conditions hint names what differs, not a generic list.
func TestConditionsHintNamesTheField(t *testing.T) {
	rec := compare.Compare(baseline.Build(1), candidate(func(a *armtest.Spec) {
		a.TPOT, a.Manifest = 11, armtest.WithField(armtest.FullManifest, "stack_fingerprint.driver_version", "560.35.03")
	}).Build(100), compare.DefaultSettings)
	c := rec.Checklist()[0]
	if c.Name != "conditions" || c.State != model.CheckFail || c.Hint != "repeat both arms with the same stack_fingerprint.driver_version" {
		t.Errorf("conditions check %+v", c)
	}
}

// Traces from different GPUs are flagged: their times do not compare.
func TestTracesFromDifferentDevicesWarn(t *testing.T) {
	b := baseline.Build(1)
	c := candidate(func(a *armtest.Spec) { a.TPOT = 10.8 }).Build(100)
	for _, rd := range b.Runs {
		rd.Traces[0].Device = "NVIDIA A100-PG509-200 rank 3"
	}
	for _, rd := range c.Runs {
		rd.Traces[0].Device = "Tesla V100-SXM2-16GB rank 1"
	}
	rec := compare.Compare(b, c, compare.DefaultSettings)
	if len(rec.Warnings) != 1 || !strings.Contains(rec.Warnings[0].English(), "A100-PG509-200 vs Tesla V100") {
		t.Errorf("warnings %v", rec.Warnings)
	}
}

// Tails move with the latencies: a candidate 10 % faster in decode has its TPOT p90 and p99
// about 10 % lower too.
func TestTails(t *testing.T) {
	rec := compare.Compare(baseline.Build(1), candidate(func(a *armtest.Spec) { a.TPOT = 10.8 }).Build(100), compare.DefaultSettings)
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

// What the files state of the stack and hardware (an npu-smi table's driver and devices) is
// the observed side of rule 1: the same manifest on both sides, different drivers in the
// files, is environment_differs naming driver_version, with the manifest's value noted.
func TestConditionsReadTheFilesFacts(t *testing.T) {
	b := baseline.Build(1)
	c := candidate(func(a *armtest.Spec) { a.TPOT = 10.8 }).Build(100)
	for i := range b.Runs {
		b.Runs[i].Fingerprint = model.FingerprintOf([]model.Evidence{{File: "b/npu-smi.txt", Facts: &model.Facts{DriverVersion: "24.1.0.3", HardwareSKU: "8 × 910B3, 65536 MB HBM each"}}})
	}
	for i := range c.Runs {
		c.Runs[i].Fingerprint = model.FingerprintOf([]model.Evidence{{File: "c/npu-smi.txt", Facts: &model.Facts{DriverVersion: "26.1.0.b087", HardwareSKU: "8 × 910B3, 65536 MB HBM each"}}})
	}
	rec := compare.Compare(b, c, compare.DefaultSettings)
	drv := rec.StackFingerprint["driver_version"]
	if drv.State != model.ConditionDiffers || drv.Baseline != "24.1.0.3" || drv.Candidate != "26.1.0.b087" || !strings.Contains(drv.Note, "bundle.yaml says") {
		t.Errorf("driver_version %+v", drv)
	}
	if rec.HardwareSKU.State != model.ConditionSame || rec.HardwareSKU.Baseline != "8 × 910B3, 65536 MB HBM each" {
		t.Errorf("hardware_sku %+v", rec.HardwareSKU)
	}
	found := false
	for _, cause := range rec.Causes {
		found = found || cause.Code == model.EnvironmentDiffers && strings.Contains(cause.Reason, "driver_version (24.1.0.3 from b/npu-smi.txt vs 26.1.0.b087 from c/npu-smi.txt)")
	}
	if !found {
		t.Errorf("causes %+v", rec.Causes)
	}
}

// Without a utilisation trace, torch_npu's step split is rule 8's evidence: a Free share of
// 18.8 % (the fixture's step_trace_time.csv) is a device waiting for its host (intermittent),
// a Free share of 2 % a sustained-high device.
func TestStepSplitFeedsTheHotspot(t *testing.T) {
	b := baseline.Build(1)
	c := candidate(func(a *armtest.Spec) { a.TPOT = 10.8 }).Build(100)
	split := func(free float64) *model.StepTime {
		return &model.StepTime{Steps: 1, Columns: map[string]float64{"Stage": 136581, "Free": free * 136581}, FreeShare: free, Source: "step_trace_time.csv"}
	}
	for i := range b.Runs {
		b.Runs[i].Util = nil
		b.Runs[i].Traces[0].StepTime = split(0.02)
	}
	for i := range c.Runs {
		c.Runs[i].Util = nil
		c.Runs[i].Traces[0].StepTime = split(0.188)
	}
	rec := compare.Compare(b, c, compare.DefaultSettings)
	h := rec.Hotspot
	if h.DeviceUtilTrace.Baseline != string(model.ShapeSustainedHigh) || h.DeviceUtilTrace.Candidate != string(model.ShapeIntermittent) ||
		!strings.Contains(h.Remedy, "host-side dispatch") {
		t.Errorf("hotspot %+v", h)
	}
	if len(h.ShapeDetail) == 0 || !strings.Contains(h.ShapeDetail[len(h.ShapeDetail)-1], "Free 18.8%: host-bound") {
		t.Errorf("detail %q", h.ShapeDetail)
	}
}
