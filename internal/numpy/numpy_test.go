package numpy

import "testing"

// Small arrays whose numpy results are exact.
func TestAgainstNumpy(t *testing.T) {
	if got := Sum([]float64{0.5, 0.25, 0.25}); got != 1.0 {
		t.Errorf("sum %v", got)
	}
	// Pairwise: eight running sums, combined as a tree. 1e16 and -1e16 share a lane and cancel
	// there, so the other lanes keep their 1s (a naive loop loses seven of them: 7).
	lane := make([]float64, 16)
	for i := range lane {
		lane[i] = 1
	}
	lane[0], lane[8] = 1e16, -1e16
	if got := Sum(lane); got != 14 {
		t.Errorf("pairwise sum %v, want 14", got)
	}
	if got := Mean([]float64{1, 2, 3, 4}); got != 2.5 {
		t.Errorf("mean %v", got)
	}
	if got := Std([]float64{1, 2, 3, 4}); got != 1.118033988749895 {
		t.Errorf("std %v", got)
	}
}
