package chart

import (
	"math"
	"testing"

	"benchlens/analysis/compare"
	"benchlens/model"
)

// Pixel is Readout's inverse, on a linear and on a log x axis.
func TestPixelInvertsReadout(t *testing.T) {
	for _, axis := range []XAxis{AxisFull, AxisLog} {
		p, _, err := CDF(Options{XAxis: axis}, "t", "x (ms)", Series{Label: "a", Values: []float64{3, 5, 8, 13, 21, 34}})
		if err != nil {
			t.Fatal(err)
		}
		for _, pt := range [][2]float64{{200, 150}, {400, 300}, {120, 260}} {
			x, y, ok := Readout(p, 640, 400, pt[0], pt[1])
			if !ok {
				t.Fatalf("axis %d: %v outside the data area", axis, pt)
			}
			px, py, ok := Pixel(p, 640, 400, x, y)
			if !ok || math.Abs(px-pt[0]) > 0.01 || math.Abs(py-pt[1]) > 0.01 {
				t.Errorf("axis %d: %v → (%v, %v) → (%v, %v) %v", axis, pt, x, y, px, py, ok)
			}
		}
		if top, ok := DataTop(p, 640, 400); !ok || top < 20 {
			t.Errorf("axis %d: the data area starts at %v, under no title", axis, top)
		}
	}
}

// A bar chart reads out the bar nearest the pointer, over the bar or its margin only.
func TestBarsAt(t *testing.T) {
	rec := compare.Record{Perf: map[string]compare.StageDelta{
		model.TTFT: {Delta: 1, CILow: -1, CIHigh: 3, P: 0.5},
		model.TPOT: {Delta: -9, CILow: -10, CIHigh: -8, P: 0.008, Significant: true, Better: true},
	}}
	_, bars, err := StageDeltas("t", rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		x    float64
		want string
	}{{0, "TTFT"}, {0.2, "TTFT"}, {0.6, "TPOT"}, {1.1, "TPOT"}, {2.5, ""}, {-1, ""}} {
		b, ok := bars.At(tc.x)
		if b.Name != tc.want || ok != (tc.want != "") {
			t.Errorf("at %v: %q %v, want %q", tc.x, b.Name, ok, tc.want)
		}
	}
	if b, _ := bars.At(1); b.Delta.P != 0.008 {
		t.Errorf("the TPOT bar carries %+v", b.Delta)
	}
}
