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
		{"NaN skipped, gap spans it", series(append([]float64{95, 5, nan, 5}, repeat(25, 95, 96, 97, 98)...)...), DefaultThresholds,
			model.ShapeSustainedHigh, 96, 2.0 / 103, []float64{3}, 103, 1},
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

// Rule 8's recurrence term: idle gaps of 0.5 s or more, 3 or more a minute, are intermittent
// whatever their share of the samples.
func TestRecurringGaps(t *testing.T) {
	// at10Hz is a busy 10 Hz nvidia-smi trace of secs seconds with one idle gap of gap seconds
	// starting at 3 s.
	at10Hz := func(secs, gap float64) model.DeviceSeries {
		var s model.DeviceSeries
		for i := range int(secs * 10) {
			t := float64(i) / 10
			b := 97.0
			if t >= 3-1e-9 && t < 3+gap-1e-9 {
				b = 0
			}
			s.T, s.Busy = append(s.T, t), append(s.Busy, b)
		}
		return s
	}
	tests := []struct {
		name     string
		s        model.DeviceSeries
		class    model.ShapeClass
		long     int
		perMin   float64
		idleBusy float64 // idle share
	}{
		// The s6 case: 9 idle samples of 90 make 10 % idle, under the 15 % share, yet a 0.9 s
		// stop in 9 s is 6.7 a minute.
		{"one 0.9 s gap in a 9 s trace", at10Hz(9, 0.9), model.ShapeIntermittent, 1, 60.0 / 9, 0.1},
		{"one 0.9 s gap in 10 minutes", at10Hz(600, 0.9), model.ShapeSustainedHigh, 1, 0.1, 9.0 / 6000},
		{"a 0.4 s gap is too short to count", at10Hz(9, 0.4), model.ShapeSustainedHigh, 0, 0, 4.0 / 90},
		{"three 1 s gaps a minute at 1 Hz", series(repeat(3, append(repeat(19, 95), 0)...)...), model.ShapeIntermittent, 3, 3, 3.0 / 60},
		{"two a minute at 1 Hz", series(repeat(2, append(repeat(29, 95), 0)...)...), model.ShapeSustainedHigh, 2, 2, 2.0 / 60},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Classify(tc.s, DefaultThresholds)
			if got.Class != tc.class || got.LongGaps != tc.long || math.Abs(got.GapsPerMinute-tc.perMin) > 1e-6 ||
				math.Abs(got.IdleShare-tc.idleBusy) > 1e-9 || got.LongGap != 0.5 {
				t.Errorf("got %q, %d long gaps (>= %g s), %g a minute over %g s, idle share %g; want %q, %d, %g a minute, idle %g",
					got.Class, got.LongGaps, got.LongGap, got.GapsPerMinute, got.Seconds, got.IdleShare, tc.class, tc.long, tc.perMin, tc.idleBusy)
			}
		})
	}
	// Thresholds written before the recurrence term existed get its defaults, not zero.
	old := Thresholds{IdleBelow: 10, HighAbove: 80, IntermittentIdleShare: 0.15, LowBelow: 30}
	if got := Classify(at10Hz(600, 0.9), old); got.Class != model.ShapeSustainedHigh || got.LongGap != 0.5 {
		t.Errorf("older thresholds: %q with long gaps from %g s, want sustained_high from 0.5 s", got.Class, got.LongGap)
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
