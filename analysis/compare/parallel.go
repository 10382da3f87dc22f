package compare

import (
	"runtime"
	"sync"
)

// onAllCores calls fn(0) … fn(n-1) on all cores and returns when every call has: the
// per-run statistics, SLO judgements and stage intervals of a compare are independent, and a
// thousand-run arm makes each of them long.
func onAllCores(n int, fn func(i int)) {
	workers := min(n, max(1, runtime.GOMAXPROCS(0)))
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
