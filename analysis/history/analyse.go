package history

import (
	"math"
	"runtime"
	"slices"
	"strconv"
	"sync"

	"benchlens/analysis/compare"
	"benchlens/model"
)

// Report is a series' history: its runs in order, the change points per stage metric and
// load point, the lone outliers, and the timeline of condition changes. It is what `history
// --format json` prints.
type Report struct {
	Series       string            `json:"series"`
	Order        string            `json:"order"` // "date" or "declared" (commit / image order)
	Runs         []RunInfo         `json:"runs"`
	LoadPoints   []string          `json:"load_points"`
	ChangePoints []ChangePoint     `json:"change_points"`
	Outliers     []Outlier         `json:"outliers"`
	Timeline     []ConditionChange `json:"timeline"`
	Settings     Settings          `json:"settings"`
	// SLO is the objective the runs' attainment and goodput were judged against (rule 14),
	// when the library sets one: their change points are among the others.
	SLO string `json:"slo,omitempty"`
}

// RunInfo is one run of the series, with its value of each stage metric (the median the
// search reads; null when the run lacks it).
type RunInfo struct {
	ID        int64                 `json:"id"`
	Date      string                `json:"date"`
	Label     string                `json:"label"`
	Commit    string                `json:"commit,omitempty"`
	Image     string                `json:"image,omitempty"`
	LoadPoint string                `json:"load_point"`
	Values    map[string]*float64   `json:"values"`
	Spread    map[string][2]float64 `json:"-"` // the median's low and high, for the charts
}

// ChangePoint is a step of one stage metric at one load point (rule 13): where it starts,
// the levels either side, the test, and, once Explain has judged its windows, its verdict,
// causes and what changed between the windows.
type ChangePoint struct {
	Stage         string      `json:"stage"`    // the stage metric's key: ttft, tpot, itl, e2el, e2e_throughput
	StageOf       model.Stage `json:"stage_of"` // prefill, decode, both
	LoadPoint     string      `json:"load_point"`
	FirstRun      int64       `json:"first_run"` // the first run after the step
	FirstDate     string      `json:"first_date"`
	LastRunBefore int64       `json:"last_run_before"`
	Before        float64     `json:"before"` // median of the segment before, in the metric's unit
	After         float64     `json:"after"`
	DeltaPct      float64     `json:"delta_pct"`
	P             float64     `json:"p"`
	Unit          string      `json:"unit"`
	Worse         bool        `json:"worse"` // the metric moved in its bad direction
	Windows       Windows     `json:"windows"`
	// Filled by Explain.
	Status   model.Status           `json:"status,omitempty"` // the windows' comparison's verdict
	Verdict  string                 `json:"verdict"`
	Causes   []compare.Cause        `json:"causes"`
	Changed  map[string][2]string   `json:"changed"`
	Evidence []compare.EvidenceLine `json:"evidence,omitempty"` // the later window's resolution and fallback lines
	Triage   *Triage                `json:"triage"`
	// Record is the windows' comparison, for the app's comparison of a step.
	Record *compare.Record `json:"-"`
}

// Windows are the runs a step is judged on: up to Settings.Window each side, within the two
// segments, outliers left out.
type Windows struct {
	Before []int64 `json:"before"`
	After  []int64 `json:"after"`
}

// Key names a change point across analyses (triage keeps it): series, stage, load point and
// the first run after the step.
func (c ChangePoint) Key() string {
	return c.Stage + "|" + c.LoadPoint + "|" + strconv.FormatInt(c.FirstRun, 10)
}

// Triage is an analyst's word on a change point: accepted (a known step of the series) or
// rejected, with a note.
type Triage struct {
	State  string `json:"state"` // accepted, rejected
	Note   string `json:"note"`
	Author string `json:"author,omitempty"`
	At     string `json:"at,omitempty"`
	// Comparison is the saved comparison of the step's windows the triage annotates.
	Comparison int64 `json:"comparison,omitempty"`
}

// Triage states.
const (
	Accepted = "accepted"
	Rejected = "rejected"
)

// Outlier is a lone run out of its level at one stage metric and load point.
type Outlier struct {
	Stage     string  `json:"stage"`
	LoadPoint string  `json:"load_point"`
	Run       int64   `json:"run"`
	Date      string  `json:"date"`
	Value     float64 `json:"value"`
	Level     float64 `json:"level"` // the median of its segment without it
}

// ConditionChange is a run whose conditions differ from the run before it: listed on the
// timeline, a change point only when some stage also stepped there (Steps).
type ConditionChange struct {
	Run           int64                `json:"run"`
	Date          string               `json:"date"`
	LastRunBefore int64                `json:"last_run_before"`
	Changed       map[string][2]string `json:"changed"`
	Steps         []string             `json:"steps"` // "tpot at concurrency 16 …" that start here; empty: nothing moved
}

// Find builds a series from its runs (any order; warm-ups are dropped) and finds its change
// points and outliers per stage metric and load point. Conditions are per run (RunConditions
// of compare, nil to skip the timeline), in the same order as runs.
func Find(name string, runs []*model.Run, conditions []map[string]string, set Settings) Report {
	rep := FindOf(name, runs, set, model.StageMetrics...)
	if conditions != nil {
		rep = rep.WithConditions(runs, conditions)
	}
	return rep
}

// FindOf is Find without the timeline, searching only the given stage metrics: the one a
// chart draws first, so a long series is on screen before the others are searched (Searched
// adds them; each metric's search is most of the time). Every run has its value of every
// stage metric.
func FindOf(name string, runs []*model.Run, set Settings, metrics ...model.StageMetric) Report {
	set = set.withDefaults()
	var kept []*model.Run
	for _, r := range runs {
		if !r.IsWarmup() {
			kept = append(kept, r)
		}
	}
	ordered, order := Order(kept)
	rep := Report{Series: name, Order: order, Settings: set, Runs: []RunInfo{}, LoadPoints: []string{},
		ChangePoints: []ChangePoint{}, Outliers: []Outlier{}, Timeline: []ConditionChange{}}
	points := Points(ordered)
	pointOf := make([]string, len(ordered))
	for _, p := range points {
		rep.LoadPoints = append(rep.LoadPoints, p.Label)
		for _, i := range p.Runs {
			pointOf[i] = p.Label
		}
	}
	for i, r := range ordered {
		info := RunInfo{ID: r.ID, Date: r.Date, Label: r.Label, Commit: Commit(r), Image: Image(r), LoadPoint: pointOf[i],
			Values: map[string]*float64{}, Spread: map[string][2]float64{}}
		for _, m := range model.StageMetrics {
			v := ValueOf(r, m)
			if !math.IsNaN(v.Median) {
				med := v.Median
				info.Values[m.Key] = &med
				info.Spread[m.Key] = [2]float64{v.Low, v.High}
			}
		}
		rep.Runs = append(rep.Runs, info)
	}
	rep.search(points, metrics, set)
	return rep
}

// Searched is the report with more metrics searched (those FindOf left), their change points
// and outliers among the others in the order Find gives them. The report given is not changed.
func (rep Report) Searched(set Settings, metrics ...model.StageMetric) Report {
	rep.ChangePoints, rep.Outliers = slices.Clone(rep.ChangePoints), slices.Clone(rep.Outliers)
	rep.search(rep.points(), metrics, set.withDefaults())
	return rep
}

// points are the report's runs at each of its load points, in series order.
func (rep Report) points() []Point {
	var points []Point
	for _, label := range rep.LoadPoints {
		p := Point{Label: label}
		for i, r := range rep.Runs {
			if r.LoadPoint == label {
				p.Runs = append(p.Runs, i)
			}
		}
		points = append(points, p)
	}
	return points
}

// WithConditions is the report with its timeline of condition changes, from each run's
// conditions (RunConditions of compare) in the order of runs: for a report found without
// them, so a long series is on screen before its evidence is read.
func (rep Report) WithConditions(runs []*model.Run, conditions []map[string]string) Report {
	cond := map[int64]map[string]string{}
	for i, r := range runs {
		if i < len(conditions) {
			cond[r.ID] = conditions[i]
		}
	}
	rep.Timeline = timeline(rep, cond)
	return rep
}

// search finds the change points and outliers of each metric at each load point, adding them
// to the report's. Each search is its own: they run on every core, their findings kept in
// point and metric order.
func (rep *Report) search(points []Point, metrics []model.StageMetric, set Settings) {
	type search struct {
		p Point
		m model.StageMetric
		found
	}
	var searches []search
	for _, p := range points {
		for _, m := range metrics {
			searches = append(searches, search{p: p, m: m})
		}
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(searches)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				searches[i].found = rep.find(searches[i].p, searches[i].m, set)
			}
		}()
	}
	for i := range searches {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, s := range searches {
		rep.Outliers = append(rep.Outliers, s.outliers...)
		rep.ChangePoints = append(rep.ChangePoints, s.changePoints...)
	}
	rep.inFindOrder()
}

// inFindOrder sorts the change points and outliers as one search of every metric finds them,
// whichever searches found them: the stage metrics' by load point, then metric, then the SLO
// metrics' the same way (each search's own finds keep their order).
func (rep *Report) inFindOrder() {
	point := map[string]int{}
	for i, p := range rep.LoadPoints {
		point[p] = i
	}
	metric := map[string]int{}
	for i, m := range append(slices.Clone(model.StageMetrics), SLOMetrics...) {
		metric[m.Key] = i
	}
	rank := func(stage, loadPoint string) int {
		m, slo := metric[stage], 0
		if m >= len(model.StageMetrics) {
			slo = 1
		}
		return (slo*len(point)+point[loadPoint])*len(metric) + m
	}
	slices.SortStableFunc(rep.ChangePoints, func(a, b ChangePoint) int {
		return rank(a.Stage, a.LoadPoint) - rank(b.Stage, b.LoadPoint)
	})
	slices.SortStableFunc(rep.Outliers, func(a, b Outlier) int {
		return rank(a.Stage, a.LoadPoint) - rank(b.Stage, b.LoadPoint)
	})
}

// found is what one search finds.
type found struct {
	outliers     []Outlier
	changePoints []ChangePoint
}

// find searches one stage metric at one load point; it only reads the report.
func (rep *Report) find(p Point, m model.StageMetric, set Settings) (f found) {
	xs := make([]float64, len(p.Runs))
	for k, i := range p.Runs {
		xs[k] = math.NaN()
		if v := rep.Runs[i].Values[m.Key]; v != nil {
			xs[k] = *v
		}
	}
	res := Detect(xs, set)
	out := map[int]bool{}
	for _, o := range res.Outliers {
		out[o] = true
	}
	run := func(k int) RunInfo { return rep.Runs[p.Runs[k]] }
	known := func(k int) bool { return !math.IsNaN(xs[k]) && !out[k] }
	for _, o := range res.Outliers {
		seg := segmentOf(res.Segments, o)
		var rest []float64
		for k := seg[0]; k < seg[1]; k++ {
			if known(k) {
				rest = append(rest, xs[k])
			}
		}
		f.outliers = append(f.outliers, Outlier{Stage: m.Key, LoadPoint: p.Label, Run: run(o).ID, Date: run(o).Date,
			Value: xs[o], Level: median(rest)})
	}
	for si, s := range res.Steps {
		before, after := res.Segments[si], res.Segments[si+1]
		var wb, wa []int64
		for k := before[1] - 1; k >= before[0] && len(wb) < set.Window; k-- {
			if known(k) {
				wb = append(wb, run(k).ID)
			}
		}
		slices.Reverse(wb)
		for k := after[0]; k < after[1] && len(wa) < set.Window; k++ {
			if known(k) {
				wa = append(wa, run(k).ID)
			}
		}
		last := before[1] - 1
		for last > before[0] && !known(last) {
			last--
		}
		d := s.DeltaPct()
		f.changePoints = append(f.changePoints, ChangePoint{Stage: m.Key, StageOf: m.Stage, LoadPoint: p.Label,
			FirstRun: run(s.Index).ID, FirstDate: run(s.Index).Date, LastRunBefore: run(last).ID,
			Before: s.Before, After: s.After, DeltaPct: d, P: s.P, Unit: m.Unit, Worse: (d > 0) != m.HigherBetter,
			Windows: Windows{Before: wb, After: wa}, Causes: []compare.Cause{}, Changed: map[string][2]string{}})
	}
	return f
}

func segmentOf(segs [][2]int, k int) [2]int {
	for _, s := range segs {
		if k >= s[0] && k < s[1] {
			return s
		}
	}
	return [2]int{k, k + 1}
}

// timeline lists the runs whose conditions differ from the run before them in the series,
// with the steps that start there (between the run before and it).
func timeline(rep Report, cond map[int64]map[string]string) []ConditionChange {
	out := []ConditionChange{}
	pos := map[int64]int{}
	for i, r := range rep.Runs {
		pos[r.ID] = i
	}
	for i := 1; i < len(rep.Runs); i++ {
		prev, cur := cond[rep.Runs[i-1].ID], cond[rep.Runs[i].ID]
		if prev == nil || cur == nil {
			continue
		}
		changed := map[string][2]string{}
		for k, v := range cur {
			if w, ok := prev[k]; ok && w != v {
				changed[k] = [2]string{w, v}
			}
		}
		if len(changed) == 0 {
			continue
		}
		c := ConditionChange{Run: rep.Runs[i].ID, Date: rep.Runs[i].Date, LastRunBefore: rep.Runs[i-1].ID, Changed: changed, Steps: []string{}}
		for _, cp := range rep.ChangePoints {
			if pos[cp.LastRunBefore] < i && i <= pos[cp.FirstRun] {
				c.Steps = append(c.Steps, cp.Stage+" at "+cp.LoadPoint)
			}
		}
		out = append(out, c)
	}
	return out
}

// OnlyStage is the report with the change points and outliers of one stage metric (its key,
// "throughput", or a stage: prefill, decode, both) only.
func (rep Report) OnlyStage(stage string) Report {
	keep := func(key string) bool {
		m, ok := MetricOf(key)
		return ok && (m.Key == stage || string(m.Stage) == stage || (stage == "throughput" && m.Key == model.Throughput))
	}
	out := rep
	out.ChangePoints, out.Outliers = []ChangePoint{}, []Outlier{}
	for _, cp := range rep.ChangePoints {
		if keep(cp.Stage) {
			out.ChangePoints = append(out.ChangePoints, cp)
		}
	}
	for _, o := range rep.Outliers {
		if keep(o.Stage) {
			out.Outliers = append(out.Outliers, o)
		}
	}
	return out
}

// AtLoadPoints is the report at the given load points only (their labels): their runs, change
// points and outliers, the timeline left whole.
func (rep Report) AtLoadPoints(points ...string) Report {
	out := rep
	out.Runs = slices.DeleteFunc(slices.Clone(rep.Runs), func(r RunInfo) bool { return !slices.Contains(points, r.LoadPoint) })
	out.LoadPoints = slices.DeleteFunc(slices.Clone(rep.LoadPoints), func(p string) bool { return !slices.Contains(points, p) })
	out.ChangePoints = slices.DeleteFunc(slices.Clone(rep.ChangePoints), func(cp ChangePoint) bool { return !slices.Contains(points, cp.LoadPoint) })
	out.Outliers = slices.DeleteFunc(slices.Clone(rep.Outliers), func(o Outlier) bool { return !slices.Contains(points, o.LoadPoint) })
	return out
}
