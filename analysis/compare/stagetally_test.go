package compare

import (
	"fmt"
	"testing"

	"benchlens/model"
)

// A sweep's stages check lists each point up to ListedPoints; past it, each stage is summed
// up over the points (a real lab's 36-point sweep wrote 180 clauses in one line): how many
// points are better, worse and unchanged, over how many the stage was measured, and the span.
func TestStagesCheckOfManyPoints(t *testing.T) {
	d := func(v float64, significant bool) StageDelta {
		return StageDelta{Delta: model.Num(v), Significant: significant, Better: significant && v < 0, Worse: significant && v > 0}
	}
	point := func(c float64, ttft, tpot StageDelta) LoadPointResult {
		return LoadPointResult{Label: fmt.Sprintf("c=%g", c), Deltas: map[string]StageDelta{model.TTFT: ttft, model.TPOT: tpot}}
	}
	noTPOT := point(64, d(-3, false), StageDelta{})
	noTPOT.Deltas = map[string]StageDelta{model.TTFT: d(-3, false)}
	for _, c := range []struct {
		name   string
		points []LoadPointResult
		want   string
		state  model.CheckState
	}{
		{"two points, listed", []LoadPointResult{point(1, d(-20, true), d(-30, true)), point(2, d(4, false), d(-29, true))},
			"c=1: ttft better (−20.0 %), tpot better (−30.0 %); c=2: ttft ~ (+4.0 %), tpot better (−29.0 %)", model.CheckOK},
		{"six points, summed up", []LoadPointResult{point(1, d(-20, true), d(-30, true)), point(2, d(-28, true), d(-29, true)),
			point(4, d(-23, true), d(-25, true)), point(8, d(-12, true), d(-25, true)), point(16, d(0.5, false), d(-27, true)),
			point(32, d(11.6, true), d(-22, true))},
			"6 load points: ttft better at 4, worse at 1, ~ at 1 (−28.0 % to +11.6 %); tpot better at all 6 (−30.0 % to −22.0 %)", model.CheckOK},
		{"a stage not measured everywhere, none better", []LoadPointResult{point(1, d(1, false), d(2, true)), point(2, d(1, false), d(2, true)),
			point(4, d(1, false), d(3, true)), point(8, d(1, false), d(2, true)), noTPOT},
			"5 load points: ttft ~ at all 5 (−3.0 % to +1.0 %); tpot worse at 4 of 4 (+2.0 % to +3.0 %)", model.CheckWarn},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := Record{LoadPoints: c.points}.pointStages()
			if st.Reason != c.want || st.State != c.state {
				t.Errorf("stages check %v\n got %q\nwant %q (%v)", st.State, st.Reason, c.want, c.state)
			}
		})
	}
}
