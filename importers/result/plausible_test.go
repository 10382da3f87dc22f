package result

import (
	"math"
	"slices"
	"testing"

	"benchlens/model"
)

// TestFlagImplausibleRequests holds the per-request warnings to what they said when each
// latency was read in passes of its own: the requests counted once whatever number of their
// values is bad, the lowest of the negatives, the highest beyond a day, NaN neither, in the
// order TTFT, TPOT, latency, gaps, the negatives first.
func TestFlagImplausibleRequests(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	ok := model.Request{TTFT: 0.1, TPOT: 0.01, Latency: 1, ITL: []float64{0.01, 0.02}}
	with := func(f func(r *model.Request)) model.Request {
		r := ok
		r.ITL = slices.Clone(ok.ITL)
		f(&r)
		return r
	}
	for _, c := range []struct {
		name     string
		requests []model.Request
		want     []string
	}{
		{"plausible", []model.Request{ok, with(func(r *model.Request) { r.TTFT, r.ITL = nan, []float64{nan} })}, nil},
		{"negative gaps", []model.Request{
			with(func(r *model.Request) { r.ITL = []float64{-0.002, 0.01, -0.005} }),
			with(func(r *model.Request) { r.ITL = []float64{-0.001} }),
			ok,
		}, []string{"2 requests with a negative inter-token gap (lowest -5.00 ms)"}},
		{"every field", []model.Request{
			with(func(r *model.Request) { r.TTFT, r.Latency, r.ITL = -0.5, 1e300, []float64{inf, -0.25, 0.01} }),
			with(func(r *model.Request) { r.TPOT, r.ITL = -0.003, []float64{1e5} }),
			with(func(r *model.Request) { r.TTFT = inf }),
		}, []string{
			"1 requests with a negative TTFT (lowest -500.00 ms)",
			"1 requests with a negative TPOT (lowest -3.00 ms)",
			"1 requests with a negative inter-token gap (lowest -250.00 ms)",
			"1 requests with a TTFT beyond a day (highest +Inf s)",
			"1 requests with a latency beyond a day (highest 1e+300 s)",
			"2 requests with a inter-token gap beyond a day (highest +Inf s)",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			run := model.NewRun("vllm")
			run.Requests = c.requests
			flagImplausible(run)
			var got []string
			for _, w := range run.Warnings {
				got = append(got, w.Args...)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("warnings\n%q\nwant\n%q", got, c.want)
			}
		})
	}
}
