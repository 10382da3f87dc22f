package report

import (
	"testing"

	"benchlens/analysis/compare"
	"benchlens/model"
)

// A sweep that moved at more points than a headline lists is summed up stage by stage, from
// the least change to the greatest, with how many points: a real lab's 36-point FP16/FP8 sweep
// (aurotripathy/vllm-bench) gave a headline of 36 clauses. Up to compare.ListedPoints, each point is
// still named with its numbers.
func TestHeadlineOfManyPoints(t *testing.T) {
	point := func(c float64, ttft, tpot float64) compare.LoadPointResult {
		d := func(v float64) compare.StageDelta {
			return compare.StageDelta{Delta: model.Num(v), Significant: true, Better: v < 0, Worse: v > 0, P: 0.01}
		}
		return compare.LoadPointResult{Status: model.NotEstablished, LoadPoint: model.LoadPoint{MaxConcurrency: model.Num(c), RequestRate: model.Unknown, InputLen: model.Unknown},
			Deltas: map[string]compare.StageDelta{model.TTFT: d(ttft), model.TPOT: d(tpot)}}
	}
	rec := func(pts ...compare.LoadPointResult) compare.Record {
		r := compare.Record{Status: model.NotEstablished, LoadPoints: pts}
		r.Arms.Baseline.Label, r.Arms.Candidate.Label = "fp16", "fp8"
		return r
	}
	still := point(128, 0, 0)
	still.Deltas = map[string]compare.StageDelta{}
	for _, c := range []struct {
		name string
		rec  compare.Record
		want string
	}{
		{"four points, listed", rec(point(1, -20, -30), point(2, -28, -29), point(4, -23, -25), point(8, -12, -25)),
			"fp8 faster at every point: TTFT −20 %, TPOT −30 % at c=1; −28 % / −29 % at c=2; −23 % / −25 % at c=4; −12 % / −25 % at c=8"},
		{"six points, summed up", rec(point(1, -20, -30), point(2, -28, -29), point(4, -23, -25), point(8, -12, -25),
			point(16, -9.8, -27), point(32, 12, -22)),
			"fp8 changed: TTFT −28 to +12 %, TPOT −30 to −22 % at all 6 points"},
		{"five of six moved", rec(point(1, -20, -30), point(2, -28, -29), point(4, -23, -25), point(8, -12, -25),
			point(16, -9.8, -27), still),
			"fp8 faster: TTFT −28 to −9.8 %, TPOT −30 to −25 % at 5 of 6 points"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := HeadlineOf(c.rec)
			if got := h.Text(English); got != c.want {
				t.Errorf("headline\n got %q\nwant %q", got, c.want)
			}
			if c.name == "six points, summed up" {
				for _, s := range h.Spans {
					if s.Tone != Plain && s.In(English) == "TTFT −28 to +12 %" {
						t.Errorf("a span of changes both ways is coloured %v", s.Tone)
					}
				}
			}
		})
	}
}
