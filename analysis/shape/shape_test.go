package shape

import (
	"math"
	"slices"
	"testing"

	"benchlens/model"
)

// series builds a 1 Hz series from busy values.
func series(busy ...float64) model.DeviceSeries {
	s := model.DeviceSeries{ID: "0", Busy: busy}
	for i := range busy {
		s.T = append(s.T, float64(i))
	}
	return s
}

func repeat(n int, vals ...float64) []float64 {
	var out []float64
	for range n {
		out = append(out, vals...)
	}
	return out
}

var nan = math.NaN()

func TestClassify(t *testing.T) {
	custom := Thresholds{IdleBelow: 20, HighAbove: 95, IntermittentIdleShare: 0.05, LowBelow: 50}
	tests := []struct {
		name     string
		s        model.DeviceSeries
		th       Thresholds
		class    model.ShapeClass
		median   float64
		idle     float64
		gaps     []float64
		samples  int
		wantGaps int
	}{
		{"sustained with rare dips", series(append(repeat(19, 95, 96, 94, 97, 93), 4)...), DefaultThresholds,
			model.ShapeSustainedHigh, 95, 1.0 / 96, []float64{1}, 96, 1},
		{"alternating 90/5", series(repeat(10, 90, 5)...), DefaultThresholds,
			model.ShapeIntermittent, 47.5, 0.5, repeat(10, 1), 20, 10},
		{"busy median, idle bursts", series(append(repeat(8, 92, 93, 94, 95, 96, 97, 91, 90), 2, 3, 1, 0, 2, 1, 4, 3, 2, 1, 0, 2)...), DefaultThresholds,
			model.ShapeIntermittent, 93, 12.0 / 76, []float64{12}, 76, 1},
		{"steady middling busy", series(repeat(30, 55)...), DefaultThresholds,
			model.ShapeIntermittent, 55, 0, nil, 30, 0},
		{"mostly idle", series(append(repeat(20, 0, 1, 2), 80, 85)...), DefaultThresholds,
			model.ShapeLow, 1, 60.0 / 62, []float64{60}, 62, 1},
		{"all NaN", series(nan, nan, nan), DefaultThresholds, "", 0, 0, nil, 0, 0},
		{"empty", model.DeviceSeries{}, DefaultThresholds, "", 0, 0, nil, 0, 0},
		{"single busy sample", series(97), DefaultThresholds, model.ShapeSustainedHigh, 97, 0, nil, 1, 0},
		{"single idle sample", series(3), DefaultThresholds, model.ShapeLow, 3, 1, []float64{1}, 1, 1},
		{"NaN skipped, gap spans it", series(95, 5, nan, 5, 95, 95, 96, 97, 98, 99, 95, 94, 96, 97, 95), DefaultThresholds,
			model.ShapeSustainedHigh, 95, 2.0 / 14, []float64{3}, 14, 1},
		{"thresholds changed: 90 is no longer high", series(repeat(10, 90, 91, 92)...), custom,
			model.ShapeIntermittent, 91, 0, nil, 30, 0},
		{"thresholds changed: 15 % is now idle", series(repeat(10, 96, 97, 15)...), custom,
			model.ShapeIntermittent, 96, 1.0 / 3, repeat(10, 1), 30, 10},
		{"thresholds changed: 40 % median is low", series(repeat(10, 40)...), custom,
			model.ShapeLow, 40, 0, nil, 10, 0},
		{"zero thresholds mean defaults", series(repeat(10, 90, 5)...), Thresholds{},
			model.ShapeIntermittent, 47.5, 0.5, repeat(10, 1), 20, 10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Classify(tc.s, tc.th)
			th := tc.th
			if th == (Thresholds{}) {
				th = DefaultThresholds
			}
			if got.Class != tc.class || got.Samples != tc.samples || got.IdleGaps != tc.wantGaps ||
				math.Abs(got.MedianBusy-tc.median) > 1e-9 || math.Abs(got.IdleShare-tc.idle) > 1e-9 {
				t.Errorf("got class %q median %g idle %g gaps %d samples %d; want %q %g %g %d %d",
					got.Class, got.MedianBusy, got.IdleShare, got.IdleGaps, got.Samples,
					tc.class, tc.median, tc.idle, tc.wantGaps, tc.samples)
			}
			if !slices.Equal(got.GapSeconds, tc.gaps) {
				t.Errorf("gap seconds %v, want %v", got.GapSeconds, tc.gaps)
			}
			if got.IdleBelow != th.IdleBelow || got.HighAbove != th.HighAbove {
				t.Errorf("thresholds recorded %g/%g, want %g/%g", got.IdleBelow, got.HighAbove, th.IdleBelow, th.HighAbove)
			}
		})
	}
}

func TestGapSecondsFollowSampling(t *testing.T) {
	s := model.DeviceSeries{T: []float64{0, 0.5, 1, 1.5, 2, 2.5}, Busy: []float64{90, 2, 3, 1, 92, 93}}
	got := Classify(s, DefaultThresholds)
	if !slices.Equal(got.GapSeconds, []float64{1.5}) {
		t.Errorf("gap seconds %v, want [1.5] (three idle samples at 2 Hz)", got.GapSeconds)
	}
}

func TestTrim(t *testing.T) {
	s := model.DeviceSeries{
		ID: "0", Start: "2025-03-25T22:31:57",
		T:      []float64{0, 1, 2, 3, 4, 5, 6},
		Busy:   []float64{0, nan, 95, 4, 96, 2, 1},
		Memory: []float64{0, 0, 40, 1, 41, 0, 0},
		Shape:  &model.Shape{Class: model.ShapeLow},
	}
	got := Trim(s, DefaultThresholds)
	if !slices.Equal(got.T, []float64{2, 3, 4}) || !slices.Equal(got.Busy, []float64{95, 4, 96}) ||
		!slices.Equal(got.Memory, []float64{40, 1, 41}) || got.Shape != nil || got.Start != s.Start {
		t.Errorf("Trim = %+v", got)
	}
	got.Busy[0] = 0
	if s.Busy[2] != 95 {
		t.Error("Trim shares its slices with the input")
	}
	idle := series(0, 1, 2)
	if got := Trim(idle, DefaultThresholds); !slices.Equal(got.Busy, idle.Busy) {
		t.Errorf("Trim of an idle series = %v, want unchanged", got.Busy)
	}
	if got := Trim(model.DeviceSeries{}, DefaultThresholds); got.Busy != nil {
		t.Errorf("Trim of empty = %v", got.Busy)
	}
}

func TestClassifyRun(t *testing.T) {
	// Idle before and after the benchmark would make a sustained run look intermittent.
	busy := append(append(repeat(10, 0), repeat(30, 95)...), repeat(10, 1)...)
	s := series(busy...)
	if got := Classify(s, DefaultThresholds).Class; got != model.ShapeIntermittent {
		t.Errorf("untrimmed class %q, want intermittent", got)
	}
	got := ClassifyRun(s, DefaultThresholds)
	if got.Class != model.ShapeSustainedHigh || got.Samples != 30 || got.IdleGaps != 0 {
		t.Errorf("ClassifyRun = %+v, want sustained_high over 30 samples", got)
	}
}
