package compare

import (
	"math"
	"slices"

	"benchlens/analysis/stats"
	"benchlens/model"
)

// perRequestCap bounds the samples a per-request test and bootstrap use: a run has millions
// of gaps, and an interval from tens of thousands is as tight as the method needs.
const (
	perRequestTestCap      = 20000
	perRequestBootstrapCap = 4000
)

// compareStage applies rule 2 to one metric. With at least two runs per arm it compares the
// per-run statistics (Mann-Whitney U across runs, bootstrap interval across runs); with a
// single run on either side it compares request by request.
func compareStage(base, cand Arm, m model.StageMetric, bucket string, e edges, set Settings) StageDelta {
	var keep func(*model.Request) bool
	if bucket != bucketAll {
		keep = func(r *model.Request) bool { return e.bucket(r.InputLen) == bucket }
	}
	d := StageDelta{Stage: m.Stage, Unit: m.Unit, Baseline: model.Unknown, Candidate: model.Unknown,
		BaselineTrim: model.Unknown, CandidateTrim: model.Unknown, Delta: model.Unknown,
		CILow: model.Unknown, CIHigh: model.Unknown, P: model.Unknown}
	var a, b []float64
	if len(base.Runs) >= 2 && len(cand.Runs) >= 2 {
		a, b = base.stageValues(m, bucket), cand.stageValues(m, bucket)
		if len(a) == 0 || len(b) == 0 {
			return d
		}
		d.Baseline, d.Candidate = model.Num(stats.Median(a)), model.Num(stats.Median(b))
		d.BaselineTrim, d.CandidateTrim = model.Num(stats.TrimmedMedian(a)), model.Num(stats.TrimmedMedian(b))
		d.BaselineRuns, d.CandidateRuns = slices.Clone(a), slices.Clone(b)
		d.P = model.Num(stats.MannWhitney(a, b))
		lo, hi := stats.RatioCI(a, b, set.Confidence, set.Bootstrap, 0, 1)
		d.CILow, d.CIHigh = pct(lo), pct(hi)
	} else {
		d.PerRequest = true
		a, b = base.pooled(m, keep), cand.pooled(m, keep)
		if len(a) == 0 || len(b) == 0 {
			// No per-request data (or a run's figure, a tail): one value per side, nothing to test.
			a, b = base.stageValues(m, bucket), cand.stageValues(m, bucket)
			if len(a) == 0 || len(b) == 0 {
				return d
			}
			d.Baseline, d.Candidate = model.Num(stats.Median(a)), model.Num(stats.Median(b))
			d.BaselineTrim, d.CandidateTrim = d.Baseline, d.Candidate
			d.N = [2]int{len(a), len(b)}
			d.Delta = pct(d.Candidate.F()/d.Baseline.F() - 1)
			return d
		}
		// The samples are thinned in their order (of time), then sorted once, in place (pooled
		// made them): the rank test and the bootstrap of a sample they share take it sorted.
		ta, tb := stats.Thin(a, perRequestTestCap), stats.Thin(b, perRequestTestCap)
		ba, bb := stats.Thin(a, perRequestBootstrapCap), stats.Thin(b, perRequestBootstrapCap)
		stats.SortFloats(a)
		stats.SortFloats(b)
		d.Baseline, d.Candidate = model.Num(stats.Median(a)), model.Num(stats.Median(b))
		d.BaselineTrim, d.CandidateTrim = d.Baseline, d.Candidate
		d.P = model.Num(stats.MannWhitney(ta, tb))
		lo, hi := stats.RatioCI(ba, bb, set.Confidence, set.Bootstrap, 0, 1)
		d.CILow, d.CIHigh = pct(lo), pct(hi)
	}
	d.N = [2]int{len(a), len(b)}
	if d.Baseline.F() == 0 {
		return d
	}
	rel := d.Candidate.F()/d.Baseline.F() - 1
	d.Delta = pct(rel)
	d.Significant = d.P.F() < set.Alpha && math.Abs(rel) >= set.NoiseFloor
	improved := rel < 0
	if m.HigherBetter {
		improved = rel > 0
	}
	d.Better = d.Significant && improved
	d.Worse = d.Significant && !improved
	return d
}

// tails compares the latencies' per-run p90 and p99 (median over runs), where both arms have
// per-request data.
func tails(base, cand Arm) map[string]Tail {
	out := map[string]Tail{}
	for _, metric := range model.Latencies {
		t := Tail{P90Delta: model.Unknown, P99Delta: model.Unknown}
		for _, q := range []struct {
			key   string
			delta *model.Num
		}{{tailP90, &t.P90Delta}, {tailP99, &t.P99Delta}} {
			a, b := base.values(metric, q.key), cand.values(metric, q.key)
			if len(a) == 0 || len(b) == 0 {
				continue
			}
			if ma := stats.Median(a); ma != 0 {
				*q.delta = pct(stats.Median(b)/ma - 1)
			}
		}
		if t.P90Delta.Known() || t.P99Delta.Known() {
			out[metric] = t
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// pooled gathers an arm's per-request samples (every gap for ITL) over its runs, for a
// metric that is the median of a per-request latency; nil for any other.
func (a Arm) pooled(m model.StageMetric, keep func(*model.Request) bool) []float64 {
	if !m.PerRequest() || m.Stat != "" {
		return nil
	}
	var out []float64
	for _, rd := range a.Runs {
		out = append(out, Samples(Measured(rd.Run), m.Of, keep)...)
	}
	return out
}

func pct(f float64) model.Num {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return model.Unknown
	}
	return model.Num(f * 100)
}
