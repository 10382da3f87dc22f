package history

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// energy finds, in one segment of a series, the split that maximises the E-Divisive means
// statistic of Matteson and James (as Apache Otava and MongoDB's signal processing use it):
// for a split into X (left, m runs) and Y (right, n runs),
//
//	Q = m·n/(m+n) · (2/(m·n)·Σ|x−y| − 1/C(m,2)·Σ|x−x'| − 1/C(n,2)·Σ|y−y'|)
//
// In one dimension the pair sums come from a running rank index (a Fenwick tree of counts
// and sums over the segment's ranks), so a scan is O(N log N), not O(N²): ten thousand
// nightly runs with their permutation tests take well under a second. Ranks and each value's
// distance sum to the whole segment do not change when the segment is permuted, so they are
// computed once per segment.
type energy struct {
	items []item    // the segment, in series order
	dist  []float64 // dist[r]: Σ|x−x'| from the value of rank r to every value of the segment
}

// item is a value with its rank in the segment (0-based, ties broken by position).
type item struct {
	x float64
	r int32
}

// scratch is one scan's working memory.
type scratch struct {
	tree    []node    // a Fenwick tree over ranks
	within  []float64 // within[k]: Σ|x−x'| over pairs of the first k values
	between []float64 // between[k]: Σ|x−y| over pairs across the split after k values
	perm    []item
}

// node is a Fenwick tree cell: how many values and their sum.
type node struct {
	c int32
	s float64
}

func newEnergy(vals []float64) *energy {
	n := len(vals)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case vals[a] < vals[b]:
			return -1
		case vals[a] > vals[b]:
			return 1
		}
		return 0
	})
	e := &energy{items: make([]item, n), dist: make([]float64, n)}
	var total float64
	for r, i := range order {
		e.items[i] = item{vals[i], int32(r)}
		total += vals[i]
	}
	below := 0.0
	for r, i := range order {
		x := vals[i]
		e.dist[r] = x*float64(r) - below + (total - below - x) - x*float64(n-r-1)
		below += x
	}
	return e
}

func newScratch(n int) *scratch {
	return &scratch{tree: make([]node, n+1), within: make([]float64, n+1), between: make([]float64, n+1), perm: make([]item, n)}
}

// pairSums fills within and between for the items in the given order, in one scan: the
// pairs across a split are the prefix's distance sums to the whole segment less twice the
// prefix's own pairs.
func (e *energy) pairSums(items []item, s *scratch) {
	n := len(items)
	tree := s.tree
	clear(tree)
	acc, all, distSum := 0.0, 0.0, 0.0
	for seen, it := range items {
		x, r := it.x, int(it.r)
		c, sum := int32(0), 0.0
		for j := r; j > 0; j -= j & -j {
			c += tree[j].c
			sum += tree[j].s
		}
		acc += x*float64(c) - sum + (all - sum) - x*float64(int32(seen)-c)
		for j := r + 1; j <= n; j += j & -j {
			tree[j].c++
			tree[j].s += x
		}
		all += x
		distSum += e.dist[r]
		s.within[seen+1] = acc
		s.between[seen+1] = distSum - 2*acc
	}
}

// best is the split with the largest Q for the items in the given order, leaving at least
// minSeg values each side: tau is the size of the left part (0 when there is no split).
func (e *energy) best(items []item, minSeg int, s *scratch) (tau int, q float64) {
	n := len(items)
	if n < 2*minSeg {
		return 0, 0
	}
	e.pairSums(items, s)
	total := s.within[n]
	tau, q = 0, -1.0
	for t := minSeg; t <= n-minSeg; t++ {
		m, k := float64(t), float64(n-t)
		wl, between := s.within[t], s.between[t]
		wr := total - wl - between
		stat := 2 * between / (m * k)
		if t > 1 {
			stat -= 2 * wl / (m * (m - 1))
		}
		if n-t > 1 {
			stat -= 2 * wr / (k * (k - 1))
		}
		stat *= m * k / (m + k)
		if stat > q {
			tau, q = t, stat
		}
	}
	return tau, q
}

// permutationP is the permutation test of the segment's best split, of strength q: the share
// of random orders of the segment whose best split is at least as strong, counting the
// observed order ((1 + hits) / (1 + permutations)). Permutation k is drawn from its own
// stream (seed, k), so the answer does not depend on how many cores share the work; the test
// stops early once p cannot fall under alpha (the p it then returns is above alpha).
func (e *energy) permutationP(q float64, minSeg, permutations int, alpha float64, seed uint64) float64 {
	n := len(e.items)
	limit := int64(alpha * float64(permutations+1)) // hits beyond this: p >= alpha
	var hits, done atomic.Int64
	var next atomic.Int64
	workers := min(max(1, runtime.GOMAXPROCS(0)), max(1, permutations/32), max(1, n/64))
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := newScratch(n)
			for {
				k := next.Add(1) - 1
				if k >= int64(permutations) || hits.Load() >= limit {
					return
				}
				copy(s.perm, e.items)
				rng := rand.New(rand.NewPCG(seed, uint64(k)))
				perm := s.perm
				rng.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
				if _, qp := e.best(perm, minSeg, s); qp >= q {
					hits.Add(1)
				}
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	if d := done.Load(); d < int64(permutations) {
		return max(float64(1+hits.Load())/float64(1+d), alpha)
	}
	return float64(1+hits.Load()) / float64(1+permutations)
}
