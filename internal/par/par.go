// Package par runs the independent iterations of a loop on all cores: the per-run statistics
// and stage intervals of a compare, the decoding of runs and evidence read together. One
// helper, so each of those loops says only what an iteration does.
package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Workers is how many goroutines Each uses for n iterations of at least grain each (grain < 1
// counts as 1): one per core at most, and 1 when the loop is too short to be worth splitting.
func Workers(n, grain int) int {
	return max(1, min(runtime.GOMAXPROCS(0), n/max(1, grain)))
}

// Each calls fn(w, i) for every i in [0, n) and returns when every call has; w, in
// [0, Workers(n, grain)), names the goroutine that runs the call, for state kept per worker
// (a cache) without a lock. Iterations are dealt one at a time as workers free up, so a few
// slow ones do not hold the rest back. With one worker the calls run in order on the caller's
// goroutine.
func Each(n, grain int, fn func(w, i int)) {
	workers := Workers(n, grain)
	if workers == 1 {
		for i := range n {
			fn(0, i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(w, i)
			}
		}()
	}
	wg.Wait()
}
