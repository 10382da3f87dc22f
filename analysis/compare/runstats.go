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
// per-request samples (every request's and the tails from its stored MeasuredStats when they
// are of these requests), else the tool's own summary numbers for the whole run.
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
	ms := storedStats(r)
	if ms == nil {
		ms = measuredStats(reqs, dropped(r), len(r.Requests))
	}
	for metric, q := range ms.Quantiles {
		out[statKey{metric, bucketAll}] = q[0]
		out[statKey{metric, tailP90}] = q[1]
		out[statKey{metric, tailP99}] = q[2]
	}
	if e.ok {
		bucketStats(out, reqs, e)
	}
	return out
}

// MeasuredStatsOf computes what import stores of a run (model.MeasuredStats): nil for a run
// without measured requests, or whose requests are a sample (the tool's statistics stand).
func MeasuredStatsOf(r *model.Run) *model.MeasuredStats {
	reqs := Measured(r)
	if len(reqs) == 0 {
		return nil
	}
	return measuredStats(reqs, dropped(r), len(r.Requests))
}

// storedStats are the run's stored MeasuredStats when they are of the requests Measured
// gives now, else nil.
func storedStats(r *model.Run) *model.MeasuredStats {
	ms := r.Measured
	if ms == nil || ms.Requests != len(r.Requests) || ms.Dropped != dropped(r) {
		return nil
	}
	return ms
}

// latencyMetrics are the per-request latencies of a run's statistics, their values in
// requestValues' order.
var latencyMetrics = [3]string{model.TTFT, model.TPOT, model.E2EL}

// requestValues are a request's TTFT, TPOT and E2EL in ms.
func requestValues(q *model.Request) [3]float64 {
	return [3]float64{q.TTFT * 1e3, stats.RequestTPOT(q) * 1e3, stats.RequestLatency(q) * 1e3}
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// measuredStats takes the p50, p90 and p99 of every latency over the successful measured
// requests (ITL over every gap, as float32 ms), each buffer allocated once at its size.
func measuredStats(reqs []model.Request, dropped, requests int) *model.MeasuredStats {
	nReq, nGap := 0, 0
	for i := range reqs {
		if q := &reqs[i]; q.OK() {
			nReq++
			nGap += len(q.ITL)
		}
	}
	var vals [3][]float64
	for m := range vals {
		vals[m] = make([]float64, 0, nReq)
	}
	gaps := make([]float32, 0, nGap)
	for i := range reqs {
		q := &reqs[i]
		if !q.OK() {
			continue
		}
		for m, v := range requestValues(q) {
			if finite(v) {
				vals[m] = append(vals[m], v)
			}
		}
		for _, g := range q.ITL {
			gaps = append(gaps, float32(g*1e3))
		}
	}
	ms := &model.MeasuredStats{Requests: requests, Dropped: dropped, Quantiles: map[string][3]float64{}}
	for m, xs := range vals {
		if len(xs) > 0 {
			ms.Quantiles[latencyMetrics[m]] = [3]float64{stats.Percentile(xs, 50), stats.Percentile(xs, 90), stats.Percentile(xs, 99)}
		}
	}
	if len(gaps) > 0 {
		ps := stats.PercentilesF32(gaps, 50, 90, 99) // one pair of passes over every gap
		ms.Quantiles[model.ITL] = [3]float64{ps[0], ps[1], ps[2]}
	}
	return ms
}

// bucketStats adds the medians of the short and long buckets (the edges are the compare's,
// so these are never stored), counted first so each buffer is allocated once at its size.
func bucketStats(out runStats, reqs []model.Request, e edges) {
	names := [2]string{bucketShort, bucketLong}
	slotOf := func(q *model.Request) int {
		switch e.bucket(q.InputLen) {
		case bucketShort:
			return 0
		case bucketLong:
			return 1
		}
		return -1
	}
	var nReq, nGap [2]int
	for i := range reqs {
		q := &reqs[i]
		if !q.OK() {
			continue
		}
		if slot := slotOf(q); slot >= 0 {
			nReq[slot]++
			nGap[slot] += len(q.ITL)
		}
	}
	var vals [3][2][]float64
	var itl [2][]float32
	for b := range names {
		for m := range latencyMetrics {
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
		if slot < 0 {
			continue
		}
		for m, v := range requestValues(q) {
			if finite(v) {
				vals[m][slot] = append(vals[m][slot], v)
			}
		}
		for _, g := range q.ITL {
			itl[slot] = append(itl[slot], float32(g*1e3))
		}
	}
	for m := range latencyMetrics {
		for b := range names {
			if len(vals[m][b]) > 0 {
				out[statKey{latencyMetrics[m], names[b]}] = stats.Percentile(vals[m][b], 50)
			}
		}
	}
	for b := range names {
		if len(itl[b]) > 0 {
			out[statKey{model.ITL, names[b]}] = stats.PercentileF32(itl[b], 50)
		}
	}
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
