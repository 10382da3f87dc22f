package compare

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"benchlens/analysis/slo"
	"benchlens/analysis/stats"
	"benchlens/internal/par"
	"benchlens/model"
)

// SaturatedPoint is a load point where an arm was saturated (METHOD.md rule 14): the client
// could not offer its load, TTFT rose with request start time, or the server's waiting queue
// grew.
type SaturatedPoint struct {
	Label   string   `json:"label" yaml:"label"`
	Arm     string   `json:"arm" yaml:"arm"` // baseline or candidate
	Reasons []string `json:"reasons" yaml:"reasons"`
}

// Detectable is how small a change of one stage metric the runs can show (issue 28 item 5),
// from its run-to-run spread (see stats.DetectableChange for the method).
type Detectable struct {
	Metric     string    `json:"metric" yaml:"metric"`
	Spread     model.Num `json:"spread_pct" yaml:"spread_pct"` // run-to-run, in % of the level
	Runs       [2]int    `json:"runs" yaml:"runs"`
	Detectable model.Num `json:"detectable_pct" yaml:"detectable_pct"` // at alpha with 80 % power; null: no change can be significant
	Change     float64   `json:"change_pct" yaml:"change_pct"`         // the change asked about (detect_change)
	RunsNeeded int       `json:"runs_needed" yaml:"runs_needed"`       // per arm, to detect Change
}

// RunSLO judges one run against an SLO: its attainment, goodput and saturation over the
// requests rule 2 keeps. A function of the run alone, so a series can chart it.
func RunSLO(rd RunData, s model.SLO) slo.RunResult {
	return slo.Judge(slo.Input{Run: rd.Run, Requests: Measured(rd.Run), Queue: queueOf(rd), GPUs: gpusOf(rd)}, s)
}

// underLoad adds what rule 14 reads from the load: each point's saturation, the SLO section
// when an SLO is set, and how small a change the runs can detect.
func underLoad(rec *Record, base, cand Arm, set Settings) {
	objective, _ := model.ParseSLO(set.SLO) // Validate has checked it
	judged := map[*model.Run]slo.RunResult{}
	for _, a := range []Arm{base, cand} {
		for r, res := range judgeArm(a, objective) {
			judged[r] = res
		}
	}
	inputs := sloPoints(rec, base, cand, judged)
	if len(objective) > 0 {
		sec := slo.Compare(objective, inputs, slo.Settings{Target: set.SLOTarget, Alpha: set.Alpha,
			NoiseFloor: set.NoiseFloor, Confidence: set.Confidence, Bootstrap: set.Bootstrap})
		rec.SLO = &sec
	}
	saturated(rec, inputs)
	rec.Measurement.Power = power(rec, set)
	if h, ok := PowerHint(rec.Measurement.Power); ok {
		rec.Measurement.advise(h)
	}
}

// judgeArm judges every run of an arm against the SLO on all cores, once per arm and SLO for
// an arm made with NewArm: the app shows the same comparison again at no cost.
func judgeArm(a Arm, objective model.SLO) map[*model.Run]slo.RunResult {
	return a.Remember("slo "+objective.String(), func() any {
		out := make([]slo.RunResult, len(a.Runs))
		par.Each(len(a.Runs), 1, func(_, i int) { out[i] = RunSLO(a.Runs[i], objective) })
		m := make(map[*model.Run]slo.RunResult, len(out))
		for i, rd := range a.Runs {
			m[rd.Run] = out[i]
		}
		return m
	}).(map[*model.Run]slo.RunResult)
}

// sloPoints pairs each matched load point's runs (one point for arms of one condition).
func sloPoints(rec *Record, base, cand Arm, judged map[*model.Run]slo.RunResult) []slo.PointInput {
	byID := map[int64]*model.Run{}
	for _, a := range []Arm{base, cand} {
		for _, rd := range a.Runs {
			byID[rd.Run.ID] = rd.Run
		}
	}
	results := func(ids []int64) []slo.RunResult {
		var out []slo.RunResult
		for _, id := range ids {
			if r, ok := byID[id]; ok {
				out = append(out, judged[r])
			}
		}
		return out
	}
	var out []slo.PointInput
	for _, p := range rec.LoadPoints {
		out = append(out, slo.PointInput{Label: p.Label, Point: p.LoadPoint, Baseline: results(p.Runs.Baseline), Candidate: results(p.Runs.Candidate)})
	}
	if len(rec.LoadPoints) == 0 && len(base.Runs) > 0 && len(cand.Runs) > 0 && len(rec.Unmatched) == 0 {
		pt := model.PointOf(base.Runs[0].Run)
		out = append(out, slo.PointInput{Label: pt.Label(), Point: pt, Baseline: results(base.ids()), Candidate: results(cand.ids())})
	}
	return out
}

// saturated lists the saturated points and notes a gain measured only at saturated points.
func saturated(rec *Record, points []slo.PointInput) {
	var gains, atSaturated []string
	for i, p := range points {
		sat := false
		for _, side := range []struct {
			name string
			runs []slo.RunResult
		}{{"baseline", p.Baseline}, {"candidate", p.Candidate}} {
			n := 0
			var why []string
			for _, r := range side.runs {
				if r.Saturation.Saturated {
					n++
					why = append(why, fmt.Sprintf("run %d: %s", r.Run, strings.Join(r.Saturation.Reasons, "; ")))
				}
			}
			if n > 0 && 2*n >= len(side.runs) {
				sat = true
				rec.Saturated = append(rec.Saturated, SaturatedPoint{Label: p.Label, Arm: side.name, Reasons: why})
			}
		}
		perf := rec.Perf
		if len(rec.LoadPoints) > 0 {
			perf = rec.LoadPoints[i].Deltas
		}
		if slices.ContainsFunc(model.StageMetrics, func(m model.StageMetric) bool { return perf[m.Key].Better }) {
			gains = append(gains, p.Label)
			if sat {
				atSaturated = append(atSaturated, p.Label)
			}
		}
	}
	if len(gains) > 0 && len(atSaturated) == len(gains) {
		rec.Notes = append(rec.Notes, "the gain is measured only at saturated load points ("+strings.Join(atSaturated, ", ")+"): queueing at the limit, not the change alone, may explain it")
	}
}

// power is the detectable change per brief stage metric: from the record's own stage tests,
// or per load point with the median spread over the points and their fewest repeats.
func power(rec *Record, set Settings) []Detectable {
	var out []Detectable
	for _, m := range model.BriefMetrics() {
		var spreads []float64
		runs := [2]int{math.MaxInt, math.MaxInt}
		add := func(d StageDelta) {
			if len(d.BaselineRuns) < 2 || len(d.CandidateRuns) < 2 {
				return
			}
			if s := stats.RelativeSpread(d.BaselineRuns, d.CandidateRuns); !math.IsNaN(s) {
				spreads = append(spreads, s)
				runs = [2]int{min(runs[0], len(d.BaselineRuns)), min(runs[1], len(d.CandidateRuns))}
			}
		}
		if len(rec.LoadPoints) > 0 {
			for _, p := range rec.LoadPoints {
				add(p.Deltas[m.Key])
			}
		} else {
			add(rec.Perf[m.Key])
		}
		if len(spreads) == 0 {
			continue
		}
		s := stats.Median(spreads)
		d := Detectable{Metric: m.Key, Spread: model.Num(100 * s), Runs: runs, Detectable: model.Unknown,
			Change: 100 * set.DetectChange, RunsNeeded: stats.RunsFor(s, set.DetectChange, set.Alpha)}
		if v := stats.DetectableChange(s, runs[0], runs[1], set.Alpha); !math.IsInf(v, 0) {
			d.Detectable = model.Num(100 * v)
		}
		out = append(out, d)
	}
	return out
}

// PowerHint is the runs-needed hint for the decode and prefill medians:
// "5+5 runs detect ≥ 3.1 % on TPOT, ≥ 8 % on TTFT; for 2 % run 14 and 60 per arm".
func PowerHint(ds []Detectable) (model.Hint, bool) {
	var detect, need []string
	var runs [2]int
	for _, key := range []string{model.TPOT, model.TTFT} {
		i := slices.IndexFunc(ds, func(d Detectable) bool { return d.Metric == key })
		if i < 0 {
			continue
		}
		d := ds[i]
		runs = d.Runs
		m, _ := model.StageMetricOf(key)
		if d.Detectable.Known() {
			detect = append(detect, fmt.Sprintf("≥ %s %% on %s", fmtPct(d.Detectable.F()), m.Short))
		} else {
			detect = append(detect, "no change on "+m.Short)
		}
		need = append(need, strconv.Itoa(d.RunsNeeded))
	}
	if len(detect) == 0 {
		return model.Hint{}, false
	}
	return hint(HintPower, runs[0], runs[1], strings.Join(detect, ", "),
		strconv.FormatFloat(ds[0].Change, 'g', -1, 64), strings.Join(need, " and ")), true
}

// fmtPct writes a percentage with one decimal below 10 and none above: 3.1, 2.0, 12.
func fmtPct(f float64) string {
	if f < 10 {
		return strconv.FormatFloat(f, 'f', 1, 64)
	}
	return strconv.FormatFloat(f, 'f', 0, 64)
}

// queueOf gathers the scheduler lines of the run's server logs.
func queueOf(rd RunData) []model.QueueSample {
	var out []model.QueueSample
	for _, l := range rd.Logs {
		out = append(out, l.Queue...)
	}
	return out
}

var reDevices = regexp.MustCompile(`(?i)(?:\bx\s*(\d+)\b|\b(\d+)\s*[x×]\s)`)

// gpusOf is the number of devices serving a run: tensor × pipeline × data parallel of its
// server log's config, else the "×N" / "xN" of bundle.yaml's hardware_sku; 0 when unknown.
func gpusOf(rd RunData) int {
	for _, l := range rd.Logs {
		n, found := 1, false
		for _, k := range []string{"tensor_parallel_size", "pipeline_parallel_size", "data_parallel_size"} {
			v := l.EngineConfig[k]
			if v == "" {
				v = l.Args[k]
			}
			if x, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && x > 0 {
				n, found = n*x, true
			}
		}
		if found {
			return n
		}
	}
	if sm := reDevices.FindStringSubmatch(rd.Run.Manifest.String("hardware_sku")); sm != nil {
		n, _ := strconv.Atoi(sm[1] + sm[2])
		return n
	}
	return 0
}
