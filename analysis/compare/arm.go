package compare

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"sync"

	"benchlens/analysis/stats"
	"benchlens/model"
)

// RunData is a run with its per-request samples and the evidence of its attached files.
type RunData struct {
	Run    *model.Run
	Logs   []*model.LogEvidence
	Util   []*model.UtilEvidence
	Traces []*model.TraceEvidence
	// Fingerprint is what the attached files state of the run's conditions, merged by
	// model.FingerprintOf (collect_env, check_env, nvidia-smi, npu-smi's driver and devices, a
	// profiler's versions), each fact with its file and line: the observed side of rule 1.
	Fingerprint model.Fingerprint
}

// Arm is the runs that repeat one condition.
type Arm struct {
	Label string
	Runs  []RunData
	// Warmups are the arm's warm-up runs, saved beside its measured runs (METHOD.md rule 12):
	// never repeats; they are its warm-up. NewArm and Compare move them here from Runs.
	Warmups []RunData
	// Declared is the change declared with the comparison (in the app, or compare
	// --change-*), read exactly as a manifest's change block (rule 10) and in its place; set
	// on the candidate arm. nil: the manifests' declaration holds.
	Declared *model.Change
	stats    []runStats // per run, filled by prepare
	memo     *memo      // shared by copies of an arm made with NewArm
}

// memo keeps each run's statistics for each set of bucket edges, so comparing the same arm
// again (the app switching between arms, or a sweep compared point by point) costs nothing.
type memo struct {
	mu      sync.Mutex
	byRun   map[memoKey]runStats
	derived map[string]any // Remember's values
}

type memoKey struct {
	run *model.Run
	e   edges
}

// NewArm returns an arm that remembers its per-run statistics between comparisons. The runs
// must not change afterwards.
func NewArm(label string, runs []RunData) Arm {
	return Arm{Label: label, Runs: runs, memo: &memo{byRun: map[memoKey]runStats{}, derived: map[string]any{}}}.measured()
}

// measured is the arm with its warm-up runs moved from Runs to Warmups.
func (a Arm) measured() Arm {
	if !slices.ContainsFunc(a.Runs, func(rd RunData) bool { return rd.Run.IsWarmup() }) {
		return a
	}
	out := a
	out.Runs, out.Warmups = nil, slices.Clone(a.Warmups)
	for _, rd := range a.Runs {
		if rd.Run.IsWarmup() {
			out.Warmups = append(out.Warmups, rd)
		} else {
			out.Runs = append(out.Runs, rd)
		}
	}
	return out
}

// warmup is the run's declared warm-up (rule 2) and whether it declares any: the warm-up the
// tool itself excluded (recorded at import), else the manifest's workload.warmup_iters.
func warmup(r *model.Run) (int, bool) {
	if toolWarmedUp(r) {
		return r.ToolWarmup.Requests, true
	}
	s := r.Manifest.String("workload", "warmup_iters")
	if s == "" {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}

// Measured returns the run's requests in issue order (when every request has a start time)
// with the declared warm-up dropped: the requests the comparison measures. The warm-up the
// tool excluded is already gone from the records. A sample of the requests (Run.Sampled) is
// not the run's population and gives nil: the tool's statistics stand for the run.
func Measured(r *model.Run) []model.Request {
	reqs := r.Requests
	if len(reqs) == 0 || r.Sampled != nil {
		return nil
	}
	// Results mostly list requests in start order already: then the run's own slice serves
	// (callers only read it), not a sorted copy per call, which was most of judging an SLO.
	if hasStarts(reqs) && !startOrdered(reqs) {
		reqs = append([]model.Request(nil), reqs...)
		sort.SliceStable(reqs, func(i, j int) bool { return reqs[i].Start < reqs[j].Start })
	}
	n := dropped(r)
	if n >= len(reqs) {
		return nil
	}
	return reqs[n:]
}

// dropped is how many leading requests Measured drops as the run's declared warm-up: none
// when the tool excluded its own.
func dropped(r *model.Run) int {
	if toolWarmedUp(r) {
		return 0
	}
	n, _ := warmup(r)
	return n
}

// toolWarmedUp says the tool itself excluded warm-up requests: they are not in the records,
// and nothing more is dropped.
func toolWarmedUp(r *model.Run) bool { return r.ToolWarmup != nil && r.ToolWarmup.Requests > 0 }

// startOrdered says the requests are in start order, as a stable sort by start leaves them.
func startOrdered(reqs []model.Request) bool {
	for i := 1; i < len(reqs); i++ {
		if reqs[i].Start < reqs[i-1].Start {
			return false
		}
	}
	return true
}

func hasStarts(reqs []model.Request) bool {
	for i := range reqs {
		if math.IsNaN(reqs[i].Start) {
			return false
		}
	}
	return true
}

// Samples returns a metric's per-request values in ms (ITL: every gap) of the successful
// requests that keep (if set) passes.
func Samples(reqs []model.Request, metric string, keep func(*model.Request) bool) []float64 {
	var out []float64
	for i := range reqs {
		r := &reqs[i]
		if !r.OK() || (keep != nil && !keep(r)) {
			continue
		}
		var v float64
		switch metric {
		case model.TTFT:
			v = r.TTFT
		case model.TPOT:
			v = stats.RequestTPOT(r)
		case model.E2EL:
			v = stats.RequestLatency(r)
		case model.ITL:
			for _, g := range r.ITL {
				out = append(out, g*1e3)
			}
			continue
		default:
			continue
		}
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			out = append(out, v*1e3)
		}
	}
	return out
}

// stageValues collects an arm's per-run values of a stage metric in a bucket (none where the
// metric has no value per bucket: a run's figure, a tail).
func (a Arm) stageValues(m model.StageMetric, bucket string) []float64 {
	switch {
	case !m.PerRequest():
		if bucket != bucketAll {
			return nil
		}
		return a.values(m.Key, bucketAll)
	case m.Stat != "":
		if bucket != bucketAll {
			return nil
		}
		return a.values(m.Of, m.Stat)
	}
	return a.values(m.Of, bucket)
}

// values collects an arm's per-run statistic of a metric in a bucket, dropping unknowns.
func (a Arm) values(metric, bucket string) []float64 {
	var out []float64
	for i := range a.Runs {
		var st runStats
		if a.stats != nil {
			st = a.stats[i]
		} else {
			st = computeRunStats(a.Runs[i].Run, edges{})
		}
		if v, ok := st[statKey{metric, bucket}]; ok && !math.IsNaN(v) {
			out = append(out, v)
		}
	}
	return out
}

// inputLens pools the measured requests' input lengths.
func (a Arm) inputLens() []float64 {
	var out []float64
	for _, rd := range a.Runs {
		for _, r := range Measured(rd.Run) {
			if r.InputLen >= 0 {
				out = append(out, float64(r.InputLen))
			}
		}
	}
	return out
}

// Remember returns compute's value for key, computed once for the runs of an arm made with
// NewArm (every time for other arms): what is drawn from an arm (the charts' samples) costs
// nothing when the app shows it again. The key is per run set, so subsets never share it.
func (a Arm) Remember(key string, compute func() any) any {
	if a.memo == nil {
		return compute()
	}
	key = fmt.Sprint(key, a.ids())
	a.memo.mu.Lock()
	v, ok := a.memo.derived[key]
	a.memo.mu.Unlock()
	if ok {
		return v
	}
	v = compute()
	a.memo.mu.Lock()
	a.memo.derived[key] = v
	a.memo.mu.Unlock()
	return v
}

// subset is the arm restricted to the runs at idx, sharing the arm's memo.
func (a Arm) subset(idx []int) Arm {
	out := Arm{Label: a.Label, memo: a.memo, Warmups: a.Warmups, Declared: a.Declared}
	for _, i := range idx {
		out.Runs = append(out.Runs, a.Runs[i])
	}
	return out
}

func (a Arm) ids() []int64 {
	ids := make([]int64, len(a.Runs))
	for i, rd := range a.Runs {
		ids[i] = rd.Run.ID
	}
	return ids
}
