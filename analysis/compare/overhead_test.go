package compare_test

import (
	"strings"
	"testing"

	"benchlens/analysis/compare"
	"benchlens/internal/armtest"
	"benchlens/model"
)

// A trace format that does not record a figure leaves it unmeasured: Ascend's op_statistic CSV
// knows its copies but no launches or syncs, its step_trace_time CSV neither, so the check is
// no all-clear; a Kineto trace's counts are measured as before.
func TestOverheadUnrecordedIsNotZero(t *testing.T) {
	tests := []struct {
		source   string
		measured bool
		state    model.CheckState
		reason   string
	}{
		{"kineto", true, model.CheckOK, "no growth: copies 1 -> 1, launches 25 -> 25, syncs 1.5 -> 1.5 per step"},
		{"ascend-op-statistic", true, model.CheckWarn,
			"no growth where measured: copies 1 -> 1, launches ? -> ?, syncs ? -> ? per step; launches and syncs (ascend-op-statistic): not recorded by these trace formats"},
		{"ascend-step-trace", false, model.CheckWarn,
			"unmeasured: copies (ascend-step-trace); launches and syncs (ascend-step-trace): not recorded by these trace formats"},
	}
	for _, tt := range tests {
		t.Run(tt.source, func(t *testing.T) {
			base, cand := baseline.Build(1), candidate(func(a *armtest.Spec) { a.TPOT = 10.8 }).Build(100)
			for _, arm := range []compare.Arm{base, cand} {
				for _, rd := range arm.Runs {
					for _, tr := range rd.Traces {
						tr.Source = tt.source
					}
				}
			}
			rec := compare.Compare(base, cand, compare.DefaultSettings)
			if rec.Overhead.Measured != tt.measured || rec.Overhead.Grew {
				t.Errorf("measured %v grew %v, want measured %v, no growth", rec.Overhead.Measured, rec.Overhead.Grew, tt.measured)
			}
			var ov compare.Check
			for _, c := range rec.Checklist() {
				if c.Name == "overhead" {
					ov = c
				}
			}
			if ov.State != tt.state || ov.Reason != tt.reason {
				t.Errorf("overhead check %s %q,\nwant %s %q", ov.State, ov.Reason, tt.state, tt.reason)
			}
			if tt.state == model.CheckWarn && !strings.Contains(ov.Hint, "trace_view.json") {
				t.Errorf("hint %q does not say which traces record host calls", ov.Hint)
			}
		})
	}
}

// Device time per step is the busy time of the analysed window over the steps in that window:
// a trace of 4 steps analysed over its middle 2 is not divided by 4.
func TestDeviceTimePerStepCountsTheWindowsSteps(t *testing.T) {
	for _, tt := range []struct {
		windowSteps int
		want        float64
	}{
		{0, 0.9 * 40000 / 4}, // stored before window_steps: all steps, as before
		{2, 0.9 * 40000 / 2},
	} {
		base, cand := baseline.Build(1), candidate(func(a *armtest.Spec) { a.TPOT = 10.8 }).Build(100)
		for _, arm := range []compare.Arm{base, cand} {
			for _, rd := range arm.Runs {
				rd.Traces[0].WindowSteps = tt.windowSteps
			}
		}
		rec := compare.Compare(base, cand, compare.DefaultSettings)
		if got := rec.Overhead.DeviceTime.Baseline; !got.Known() || got.F() != tt.want {
			t.Errorf("window of %d steps: device time per step %v, want %v", tt.windowSteps, got, tt.want)
		}
	}
}
