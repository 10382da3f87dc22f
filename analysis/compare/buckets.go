package compare

import (
	"fmt"
	"slices"

	"benchlens/analysis/stats"
	"benchlens/internal/par"
	"benchlens/model"
)

// buckets applies rule 7: the stage comparison repeated per input-length bucket (short = the
// lowest third, long = the highest third of the baseline's lengths, mixed = all), p-values
// Holm-adjusted across the buckets of each stage.
func buckets(rec *Record, base, cand Arm, e edges, lens []float64, set Settings) {
	b := Buckets{Rows: []BucketResult{}, HoldsIn: []string{}}
	if len(lens) == 0 {
		rec.Buckets = b
		return
	}
	names := []string{bucketAll}
	if e.ok {
		b.Edges = []float64{e.short, e.long}
		names = []string{bucketShort, bucketLong, bucketAll}
	} else {
		b.OneLength = true
		b.Edges = []float64{lens[0], lens[0]}
	}
	metrics := model.BucketMetrics()
	deltas := make([]StageDelta, len(names)*len(metrics))
	par.Each(len(deltas), 1, func(_, i int) {
		if name, m := names[i/len(metrics)], metrics[i%len(metrics)]; name != bucketAll {
			deltas[i] = compareStage(base, cand, m, name, e, set)
		}
	})
	for n, name := range names {
		row := BucketResult{Bucket: name, Stages: map[string]StageDelta{}}
		for k, m := range metrics {
			if name == bucketAll {
				row.Stages[m.Key] = rec.Perf[m.Key] // the overall comparison, before adjustment
				continue
			}
			row.Stages[m.Key] = deltas[n*len(metrics)+k]
		}
		b.Rows = append(b.Rows, row)
	}
	// Holm across buckets, stage by stage; significance is re-judged on the adjusted p.
	for _, m := range model.BucketMetrics() {
		stage := m.Key
		var ps []float64
		for _, row := range b.Rows {
			ps = append(ps, row.Stages[stage].P.F())
		}
		adj := stats.Holm(nanToOne(ps))
		for i, row := range b.Rows {
			d := row.Stages[stage]
			if d.P.Known() {
				d.P = model.Num(adj[i])
				sig := d.P.F() < set.Alpha && d.Delta.Known() && abs(d.Delta.F()) >= 100*set.NoiseFloor
				d.Better, d.Worse = sig && d.Better, sig && d.Worse
				d.Significant = sig
			}
			row.Stages[stage] = d
		}
	}
	rec.Buckets = b
}

func nanToOne(ps []float64) []float64 {
	out := make([]float64, len(ps))
	for i, p := range ps {
		out[i] = p
		if p != p {
			out[i] = 1
		}
	}
	return out
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// holdsIn lists the buckets where the verdict's finding holds: the stages that improved
// overall improve there too (for established and offset), or nothing improves (for zero).
func holdsIn(rec *Record) []string {
	var better []string
	for _, m := range model.BucketMetrics() {
		if rec.Perf[m.Key].Better {
			better = append(better, m.Key)
		}
	}
	out := []string{}
	for _, row := range rec.Buckets.Rows {
		holds := true
		switch rec.Status {
		case model.Established, model.Offset:
			if len(better) == 0 {
				holds = false
			}
			for _, s := range better {
				holds = holds && row.Stages[s].Better
			}
		case model.Zero:
			for _, m := range model.BucketMetrics() {
				holds = holds && !row.Stages[m.Key].Better
			}
		default:
			holds = false
		}
		if holds {
			out = append(out, row.Bucket)
		}
	}
	return out
}

// bucketNote says where the conclusion does not hold.
func bucketNote(rec *Record) string {
	if rec.Buckets.OneLength {
		return fmt.Sprintf("all requests share one input length (%.0f tokens): no short or long bucket to check", rec.Buckets.Edges[0])
	}
	var not []string
	for _, row := range rec.Buckets.Rows {
		if !slices.Contains(rec.Buckets.HoldsIn, row.Bucket) {
			not = append(not, row.Bucket)
		}
	}
	if len(not) == 0 || len(rec.Buckets.Rows) == 0 || rec.Status == model.NotEstablished {
		return ""
	}
	return fmt.Sprintf("the conclusion does not hold for %v requests", not)
}
