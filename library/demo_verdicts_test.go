package library

import (
	"slices"
	"strings"
	"testing"

	"benchlens/analysis/compare"
	"benchlens/model"
)

// Each sample arm of the demo gets the verdict and causes it was made for.
func TestDemoArmsGetTheirVerdicts(t *testing.T) {
	st := openStore(t)
	if rep := LoadDemo(st); len(rep.Errors) > 0 {
		t.Fatal(rep.Errors)
	}
	tests := []struct {
		arm    string
		status model.Status
		causes []model.CauseCode
	}{
		{"established", model.Established, nil},
		{"zero", model.Zero, []model.CauseCode{model.BottleneckNotInStage}},
		{"offset", model.Offset, []model.CauseCode{model.OffsetByOverhead}},
		{"offset-ops", model.Offset, []model.CauseCode{model.OffsetByOverhead}},
		{"fallback", model.NotEstablished, []model.CauseCode{model.PathUnchanged, model.TargetNotHit}},
		{"driver-change", model.NotEstablished, []model.CauseCode{model.EnvironmentDiffers}},
		{"drift", model.NotEstablished, []model.CauseCode{model.LoadDrift}},
		{"few-repeats", model.NotEstablished, []model.CauseCode{model.MeasurementUncontrolled}},
	}
	for _, tt := range tests {
		t.Run(tt.arm, func(t *testing.T) {
			rec, err := Compare(st, "baseline", tt.arm, compare.DefaultSettings)
			if err != nil {
				t.Fatal(err)
			}
			want := slices.Clone(tt.causes)
			slices.Sort(want)
			if got := rec.CauseCodes(); rec.Status != tt.status || !slices.Equal(got, want) {
				t.Errorf("%s: %s %v, want %s %v\n%v", tt.arm, rec.Status, got, tt.status, want, rec.Causes)
			}
		})
	}
	if _, err := Compare(st, "baseline", "no-such-arm", compare.DefaultSettings); err == nil {
		t.Error("an unknown label compared without error")
	}
}

// offset-ops is offset by rule 6's targeted ops alone: no stage is faster and the total device
// time per step grew, but the attention family's device time fell and overhead grew.
func TestDemoOffsetByTargetedOps(t *testing.T) {
	st := openStore(t)
	LoadDemo(st)
	rec, err := Compare(st, "baseline", "offset-ops", compare.DefaultSettings)
	if err != nil {
		t.Fatal(err)
	}
	if d := rec.Overhead.DeviceTime.Delta; !d.Known() || d.F() <= 0 {
		t.Errorf("device time per step delta %v, want growth", d)
	}
	for _, m := range []string{"ttft", "tpot", "itl"} {
		if rec.Perf[m].Better {
			t.Errorf("%s significantly better: the gain must come from the targeted ops alone", m)
		}
	}
	f := rec.Families
	if f == nil || f.Targeted == nil || f.Targeted.Family != "attention" || !f.Targeted.Fell {
		t.Fatalf("targeted %+v", f)
	}
	if rec.Path.KernelBackend.Baseline != "FLASH_ATTN" || rec.Path.KernelBackend.Candidate != "FLASHINFER" {
		t.Errorf("kernel backends %+v", rec.Path.KernelBackend)
	}
	if !strings.Contains(rec.Causes[len(rec.Causes)-1].Reason, "attention device time") {
		t.Errorf("offset reason %q does not name the targeted ops", rec.Causes[len(rec.Causes)-1].Reason)
	}
}

// The idle threshold setting reclassifies the utilisation traces at compare time.
func TestIdleThresholdSettingApplies(t *testing.T) {
	st := openStore(t)
	LoadDemo(st)
	def, _ := Compare(st, "baseline", "offset", compare.DefaultSettings)
	strict := compare.DefaultSettings
	strict.IdleThreshold = 99
	rec, _ := Compare(st, "baseline", "offset", strict)
	if def.Hotspot.DeviceUtilTrace.Baseline != "sustained_high" || rec.Hotspot.DeviceUtilTrace.Baseline == "sustained_high" {
		t.Errorf("baseline shape %q with the default threshold, %q with 99 %%", def.Hotspot.DeviceUtilTrace.Baseline, rec.Hotspot.DeviceUtilTrace.Baseline)
	}
}

// The demo sweep: FlashInfer's decode gain holds at concurrency 1-16 and is offset by
// host-side overhead at 64 (rule 9).
func TestDemoSweepVerdictsPerPoint(t *testing.T) {
	st := openStore(t)
	if rep := LoadDemo(st); len(rep.Errors) > 0 {
		t.Fatal(rep.Errors)
	}
	rec, err := Compare(st, "sweep-baseline", "sweep-candidate", compare.DefaultSettings)
	if err != nil {
		t.Fatal(err)
	}
	const shape = " · 1024→64 tok · random" // every point's label names its request shape
	want := map[string]model.Status{"concurrency 1" + shape: model.Established, "concurrency 4" + shape: model.Established,
		"concurrency 16" + shape: model.Established, "concurrency 64" + shape: model.Offset}
	if len(rec.LoadPoints) != 4 {
		t.Fatalf("%d load points", len(rec.LoadPoints))
	}
	for _, p := range rec.LoadPoints {
		if p.Status != want[p.Label] || p.Repeats != (compare.PerArm[int]{Baseline: 5, Candidate: 5}) {
			t.Errorf("%s: %s %+v, want %s", p.Label, p.Status, p.Repeats, want[p.Label])
		}
	}
	if rec.Status != model.Established || !slices.Equal(rec.CauseCodes(), []model.CauseCode{model.LoadDependent}) ||
		rec.HoldsUnder != "established at concurrency 1-16; offset at 64" || len(rec.Unmatched) > 0 {
		t.Errorf("%s %v %q unmatched %v", rec.Status, rec.Causes, rec.HoldsUnder, rec.Unmatched)
	}
}
