package chart

import (
	"math"
	"reflect"
	"testing"
)

// A timeline reads, per label, the mean of its series' last samples at or before x, each
// series timed from its own first sample; a series past its end or on a missing sample adds
// nothing.
func TestTimelineAt(t *testing.T) {
	nan := math.NaN()
	at := TimelineAt(
		TimelineSeries{Label: "baseline", T: []float64{100, 101, 102}, Busy: []float64{90, 80, nan}},
		TimelineSeries{Label: "baseline", T: []float64{5, 6, 7, 8}, Busy: []float64{70, 60, 50, 40}},
		TimelineSeries{Label: "candidate", T: []float64{0, 1}, Busy: []float64{20, 30}},
	)
	for _, tt := range []struct {
		x    float64
		want []SeriesValue
	}{
		{0, []SeriesValue{{"baseline", 80, "80% busy", nil}, {"candidate", 20, "20% busy", nil}}},
		{1, []SeriesValue{{"baseline", 70, "70% busy", nil}, {"candidate", 30, "30% busy", nil}}},
		{1.5, []SeriesValue{{"baseline", 70, "70% busy", nil}}}, // candidate has ended
		{2, []SeriesValue{{"baseline", 50, "50% busy", nil}}},   // baseline's first series is missing there
		{3, []SeriesValue{{"baseline", 40, "40% busy", nil}}},
		{4, nil},
		{-1, nil},
	} {
		if got := at(tt.x); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("at %v: %+v, want %+v", tt.x, got, tt.want)
		}
	}
}

// A histogram reads, per series, the share of its values in the bin holding x.
func TestHistogramAt(t *testing.T) {
	_, at, err := Histogram(Options{Bins: 4}, "t", "x (ms)",
		Series{Label: "baseline", Values: []float64{0, 1, 1, 2, 3, 4, 4, 4}},
		Series{Label: "candidate", Values: []float64{4, 4}})
	if err != nil {
		t.Fatal(err)
	}
	// Four bins over [0, 4]: [0,1) [1,2) [2,3) [3,4].
	for _, tt := range []struct {
		x    float64
		want []SeriesValue
	}{
		{0.5, []SeriesValue{{"baseline", 12.5, "12.5% in 0-1", nil}, {"candidate", 0, "0.0% in 0-1", nil}}},
		{3.5, []SeriesValue{{"baseline", 50, "50.0% in 3-4", nil}, {"candidate", 100, "100.0% in 3-4", nil}}},
		{5, nil},
	} {
		if got := at(tt.x); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("at %v: %+v, want %+v", tt.x, got, tt.want)
		}
	}
}
