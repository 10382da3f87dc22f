package gui

import (
	"strings"
	"testing"

	"benchlens/analysis/compare"
	"benchlens/model"
)

// The headline names the stage the verdict rests on: for an established or offset gain the
// significantly better stage of rule 6 with the smallest p, not the largest change.
func TestHeadlineNamesAttributedStage(t *testing.T) {
	better := func(delta, p float64) compare.StageDelta {
		return compare.StageDelta{Delta: model.Num(delta), P: model.Num(p), Significant: true, Better: true}
	}
	perf := map[string]compare.StageDelta{
		model.TTFT: better(-20, 0.03),
		model.TPOT: better(-9.1, 0.008),
		model.ITL:  better(-8, 0.02),
		model.E2EL: better(-30, 0.001),
	}
	for _, tc := range []struct {
		status model.Status
		perf   map[string]compare.StageDelta
		want   string
	}{
		{model.Established, perf, "TPOT −9.1 %, p=0.008"},
		{model.Offset, perf, "TPOT −9.1 %, p=0.008"},
		{model.Established, map[string]compare.StageDelta{model.TTFT: better(-20, 0.03), model.E2EL: better(-30, 0.001)}, "TTFT −20.0 %, p=0.03"},
		{model.NotEstablished, perf, "E2E latency −30.0 %"}, // no attribution: the largest change
	} {
		got := gainText(compare.Record{Status: tc.status, Perf: tc.perf})
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: headline %q, want %q", tc.status, got, tc.want)
		}
	}
}
