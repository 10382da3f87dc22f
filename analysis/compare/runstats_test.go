package compare

import (
	"math"
	"testing"

	"benchlens/model"
)

// A run's stored statistics stand for the requests they were taken over and no others: the
// compare reads them while the run's measured requests are those (a marked value shows it),
// and computes afresh once its warm-up is declared anew, the tool's own warm-up is known or
// the requests differ in number; either way every bucket's median is computed.
func TestStoredStatsStandOnlyForTheirRequests(t *testing.T) {
	newRun := func() *model.Run {
		r := model.NewRun("vllm")
		r.Manifest = model.Manifest{"workload": map[string]any{"warmup_iters": 2}}
		for i := range 30 {
			r.Requests = append(r.Requests, model.Request{InputLen: 100 * (i % 3), OutputLen: 8, TTFT: 0.01 * float64(1+i%7),
				TPOT: math.NaN(), Latency: math.NaN(), Start: float64(i), ITL: []float64{0.001 * float64(1+i%5), 0.002}})
		}
		return r
	}
	const marked = 12345.0
	tests := []struct {
		name  string
		edit  func(r *model.Run)
		reads bool
	}{
		{"as stored", func(*model.Run) {}, true},
		{"warm-up declared anew", func(r *model.Run) { r.Manifest = model.Manifest{"workload": map[string]any{"warmup_iters": 5}} }, false},
		{"warm-up no longer declared", func(r *model.Run) { r.Manifest = nil }, false},
		{"the tool's own warm-up", func(r *model.Run) { r.ToolWarmup = &model.Warmup{Requests: 4} }, false},
		{"one request more", func(r *model.Run) { r.Requests = append(r.Requests, r.Requests[0]) }, false},
	}
	e := edges{short: 50, long: 150, ok: true}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRun()
			ms := MeasuredStatsOf(r)
			q := ms.Quantiles[model.TTFT]
			q[0] = marked
			ms.Quantiles[model.TTFT] = q
			tt.edit(r)
			fresh := computeRunStats(r, e)
			r.Measured = ms
			got := computeRunStats(r, e)
			if read := got[statKey{model.TTFT, bucketAll}] == marked; read != tt.reads {
				t.Fatalf("stored statistics read: %v, want %v", read, tt.reads)
			}
			for k, v := range fresh {
				if k == (statKey{model.TTFT, bucketAll}) && tt.reads {
					continue
				}
				if math.Float64bits(got[k]) != math.Float64bits(v) {
					t.Errorf("%v: %v, computed %v", k, got[k], v)
				}
			}
			if len(got) != len(fresh) || got[statKey{model.ITL, bucketShort}] == 0 {
				t.Errorf("%d statistics, computed %d: %v", len(got), len(fresh), got)
			}
		})
	}
}
