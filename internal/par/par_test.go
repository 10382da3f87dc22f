package par

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// Every iteration runs once, with a worker index in range, for loops shorter and longer than
// a grain.
func TestEachRunsEveryIterationOnce(t *testing.T) {
	for _, tc := range []struct{ n, grain int }{{0, 1}, {1, 1}, {5, 256}, {1000, 1}, {1000, 64}, {3, 0}} {
		counts := make([]atomic.Int32, tc.n)
		workers := Workers(tc.n, tc.grain)
		Each(tc.n, tc.grain, func(w, i int) {
			if w < 0 || w >= workers {
				t.Errorf("n=%d grain=%d: worker %d outside [0, %d)", tc.n, tc.grain, w, workers)
			}
			counts[i].Add(1)
		})
		for i := range counts {
			if c := counts[i].Load(); c != 1 {
				t.Errorf("n=%d grain=%d: iteration %d ran %d times", tc.n, tc.grain, i, c)
			}
		}
	}
}

// A loop shorter than one grain is not split; a long one uses every core, no more.
func TestWorkers(t *testing.T) {
	cores := runtime.GOMAXPROCS(0)
	for _, tc := range []struct{ n, grain, want int }{{0, 256, 1}, {255, 256, 1}, {1 << 20, 1, cores}, {2, 1, min(2, cores)}} {
		if got := Workers(tc.n, tc.grain); got != tc.want {
			t.Errorf("Workers(%d, %d) = %d, want %d", tc.n, tc.grain, got, tc.want)
		}
	}
}
