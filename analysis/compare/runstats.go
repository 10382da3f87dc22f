package compare

import (
	"math"
	"slices"

	"benchlens/analysis/stats"
	"benchlens/internal/par"
	"benchlens/model"
)

// Input-length buckets (rule 7); "mixed" is every request.
const (
	bucketAll   = "mixed"
	bucketShort = "short"
	bucketLong  = "long"
	// tailP90 and tailP99 key a run's p90 and p99 over every request (not buckets).
	tailP90 = "p90"
	tailP99 = "p99"
)

type statKey struct{ metric, bucket string }

// runStats are one run's per-bucket statistics, computed in one pass over its requests.
type runStats map[statKey]float64

// edges are the short and long thresholds of input length; none when there are no lengths.
type edges struct {
	short, long float64
	ok          bool
}

func (e edges) bucket(inputLen int) string {
	switch {
	case !e.ok || inputLen < 0:
		return ""
	case float64(inputLen) <= e.short:
		return bucketShort
	case float64(inputLen) > e.long:
		return bucketLong
	}
	return ""
}

// prepare computes every run's statistics once, on all cores: a compare of two arms of five
// runs with millions of gaps each is dominated by these medians.
func prepare(arms []Arm, e edges) {
	type job struct {
		a *Arm
		i int
	}
	var todo []job
	for k := range arms {
		a := &arms[k]
		a.stats = make([]runStats, len(a.Runs))
		for i := range a.Runs {
			if st, ok := a.remembered(a.Runs[i].Run, e); ok {
				a.stats[i] = st
				continue
			}
			todo = append(todo, job{a, i})
		}
	}
	par.Each(len(todo), 1, func(_, k int) {
		j := todo[k]
		j.a.stats[j.i] = computeRunStats(j.a.Runs[j.i].Run, e)
	})
	for _, j := range todo {
		if j.a.memo != nil {
			j.a.memo.mu.Lock()
			j.a.memo.byRun[memoKey{j.a.Runs[j.i].Run, e}] = j.a.stats[j.i]
			j.a.memo.mu.Unlock()
		}
	}
}

func (a *Arm) remembered(r *model.Run, e edges) (runStats, bool) {
	if a.memo == nil {
		return nil, false
	}
	a.memo.mu.Lock()
	defer a.memo.mu.Unlock()
	st, ok := a.memo.byRun[memoKey{r, e}]
	return st, ok
}

// computeRunStats returns the medians of TTFT, TPOT, E2EL and ITL per bucket for a run with
// per-request samples, else the tool's own summary numbers for the whole run.
func computeRunStats(r *model.Run, e edges) runStats {
	out := runStats{}
	for _, m := range model.StageMetrics {
		if m.Figure == nil {
			continue
		}
		if v := m.Figure(r); v.Known() {
			out[statKey{m.Key, bucketAll}] = v.F()
		}
	}
	reqs := Measured(r)
	if len(reqs) == 0 {
		for _, m := range model.Latencies {
			if v, ok := r.Summary[m].Median(); ok {
				out[statKey{m, bucketAll}] = v.F()
			} else if v, ok := r.Summary[m].Stat("mean"); ok {
				out[statKey{m, bucketAll}] = v.F()
			}
			if v, ok := r.Summary[m]["p99"]; ok && v.Known() {
				out[statKey{m, tailP99}] = v.F()
			}
		}
		return out
	}
	// Slot 0 is every request, 1 short, 2 long; metrics TTFT, TPOT, E2EL, then ITL gaps,
	// counted first so each buffer is allocated once at its size.
	bucketNames := [3]string{bucketAll, bucketShort, bucketLong}
	metrics := [3]string{model.TTFT, model.TPOT, model.E2EL}
	slotOf := func(q *model.Request) int {
		switch e.bucket(q.InputLen) {
		case bucketShort:
			return 1
		case bucketLong:
			return 2
		}
		return 0
	}
	var nReq, nGap [3]int
	for i := range reqs {
		q := &reqs[i]
		if !q.OK() {
			continue
		}
		slot := slotOf(q)
		nReq[0]++
		nGap[0] += len(q.ITL)
		if slot > 0 {
			nReq[slot]++
			nGap[slot] += len(q.ITL)
		}
	}
	var vals [3][3][]float64
	var itl [3][]float32
	for b := range bucketNames {
		for m := range metrics {
			vals[m][b] = make([]float64, 0, nReq[b])
		}
		itl[b] = make([]float32, 0, nGap[b])
	}
	for i := range reqs {
		q := &reqs[i]
		if !q.OK() {
			continue
		}
		slot := slotOf(q)
		for m, v := range [3]float64{q.TTFT, stats.RequestTPOT(q), stats.RequestLatency(q)} {
			v *= 1e3
			if math.IsNaN(v) || math.IsInf(v, 0) {
				continue
			}
			vals[m][0] = append(vals[m][0], v)
			if slot > 0 {
				vals[m][slot] = append(vals[m][slot], v)
			}
		}
		for _, g := range q.ITL {
			itl[0] = append(itl[0], float32(g*1e3))
		}
		if slot > 0 {
			for _, g := range q.ITL {
				itl[slot] = append(itl[slot], float32(g*1e3))
			}
		}
	}
	for m := range metrics {
		for b := range bucketNames {
			if len(vals[m][b]) > 0 {
				out[statKey{metrics[m], bucketNames[b]}] = stats.Percentile(vals[m][b], 50)
			}
		}
		if xs := vals[m][0]; len(xs) > 0 {
			out[statKey{metrics[m], tailP90}] = stats.Percentile(xs, 90)
			out[statKey{metrics[m], tailP99}] = stats.Percentile(xs, 99)
		}
	}
	if gaps := itl[0]; len(gaps) > 0 {
		ps := stats.PercentilesF32(gaps, 50, 90, 99) // one pair of passes over every gap
		out[statKey{model.ITL, bucketAll}] = ps[0]
		out[statKey{model.ITL, tailP90}] = ps[1]
		out[statKey{model.ITL, tailP99}] = ps[2]
	}
	for b := 1; b < len(bucketNames); b++ {
		if len(itl[b]) > 0 {
			out[statKey{model.ITL, bucketNames[b]}] = stats.PercentileF32(itl[b], 50)
		}
	}
	return out
}

// baselineEdges are the bucket edges: the settings' if given, else the tertiles of the
// baseline's input lengths.
func baselineEdges(base Arm, set Settings) (edges, []float64) {
	lens := base.inputLens()
	if len(lens) == 0 {
		return edges{}, nil
	}
	lo, hi := slices.Min(lens), slices.Max(lens)
	switch {
	case lo == hi:
		return edges{}, lens
	case len(set.BucketEdges) >= 2:
		return edges{float64(set.BucketEdges[0]), float64(set.BucketEdges[1]), true}, lens
	}
	ps := stats.Percentiles(slices.Clone(lens), []float64{100.0 / 3, 200.0 / 3})
	return edges{ps[0], ps[1], true}, lens
}
