package chart_test

import (
	"benchlens/analysis/compare"
	"benchlens/model"
)

func sd(delta, lo, hi float64, better, worse bool) compare.StageDelta {
	return compare.StageDelta{
		Delta: model.Num(delta), CILow: model.Num(lo), CIHigh: model.Num(hi),
		Significant: better || worse, Better: better, Worse: worse,
	}
}

// synthRecord is a hand-made record: every outcome (better, worse, ~, unknown) appears.
func synthRecord() compare.Record {
	rec := compare.Record{
		Perf: map[string]compare.StageDelta{
			model.TTFT:       sd(-21.4, -25.2, -17.9, true, false),
			model.TPOT:       sd(2.6, 1.4, 3.9, false, true),
			model.ITL:        sd(0.4, -0.8, 1.7, false, false),
			model.E2EL:       sd(-4.2, -6.8, -1.1, true, false),
			"e2e_throughput": sd(3.1, -0.5, 6.4, false, false),
		},
		Settings: compare.DefaultSettings,
	}
	rec.Buckets = compare.Buckets{
		Edges: []float64{128, 512},
		Rows: []compare.BucketResult{
			{Bucket: "mixed", Stages: map[string]compare.StageDelta{
				model.TTFT: rec.Perf[model.TTFT], model.TPOT: rec.Perf[model.TPOT], model.ITL: rec.Perf[model.ITL]}},
			{Bucket: "short", Stages: map[string]compare.StageDelta{
				model.TTFT: sd(-6.1, -12.0, 0.3, false, false),
				model.TPOT: sd(1.2, -0.6, 3.1, false, false),
				model.ITL:  {Delta: model.Unknown, CILow: model.Unknown, CIHigh: model.Unknown}}},
			{Bucket: "long", Stages: map[string]compare.StageDelta{
				model.TTFT: sd(-31.5, -36.0, -27.2, true, false),
				model.TPOT: sd(3.8, 2.0, 5.5, false, true),
				model.ITL:  sd(0.9, -0.9, 2.6, false, false)}},
		},
	}
	return rec
}
