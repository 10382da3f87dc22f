package library

import (
	"slices"
	"testing"

	"benchlens/analysis/compare"
)

// Each sample arm of the demo gets the verdict and causes it was made for.
func TestDemoArmsGetTheirVerdicts(t *testing.T) {
	st := openStore(t)
	if rep := LoadDemo(st); len(rep.Errors) > 0 {
		t.Fatal(rep.Errors)
	}
	tests := []struct {
		arm    string
		status compare.Status
		causes []compare.CauseCode
	}{
		{"established", compare.Established, nil},
		{"zero", compare.Zero, []compare.CauseCode{compare.BottleneckNotInStage}},
		{"offset", compare.Offset, []compare.CauseCode{compare.OffsetByOverhead}},
		{"fallback", compare.NotEstablished, []compare.CauseCode{compare.PathUnchanged, compare.TargetNotHit}},
		{"driver-change", compare.NotEstablished, []compare.CauseCode{compare.EnvironmentDiffers}},
		{"drift", compare.NotEstablished, []compare.CauseCode{compare.LoadDrift}},
		{"few-repeats", compare.NotEstablished, []compare.CauseCode{compare.MeasurementUncontrolled}},
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
