package compare

import (
	"testing"

	"benchlens/model"
)

// A sweep along no single axis (four request shapes at each concurrency, as a real lab's
// FP16/FP8 sweep ran them; TonyLi15's two concurrencies by four shapes) names its points by
// label, or by how many, never as a range from one label to another.
func TestHoldsUnderASweepOfNoSingleAxis(t *testing.T) {
	grid := func(statuses ...model.Status) []LoadPointResult {
		var out []LoadPointResult
		for i, s := range statuses {
			c, in := []float64{8, 32}[i/4%2], []float64{128, 512}[i/2%2]
			if i >= 8 {
				c = 64
			}
			p := model.LoadPoint{MaxConcurrency: model.Num(c), RequestRate: model.Unknown, InputLen: model.Num(in),
				OutputLen: model.Num([]float64{64, 128}[i%2]), InputFrom: model.LengthDeclared, OutputFrom: model.LengthDeclared,
				OutputFixed: "declared", Dataset: "random"}
			out = append(out, LoadPointResult{LoadPoint: p, Label: p.Label(), Status: s})
		}
		return out
	}
	ne, est, zero := model.NotEstablished, model.Established, model.Zero
	for _, c := range []struct {
		name   string
		points []LoadPointResult
		want   string
	}{
		{"every point alike", grid(ne, ne, ne, ne, ne, ne, ne, ne), "not_established at all 8 points"},
		{"a few points named", grid(est, est, est, est, est, est, zero, zero),
			"established at 6 of 8 points; zero at concurrency 32 · 512→64 tok · random and concurrency 32 · 512→128 tok · random"},
		{"one point: its axis", grid(est)[:1], "established at concurrency 8"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := holdsUnder(c.points); got != c.want {
				t.Errorf("holds under\n got %q\nwant %q", got, c.want)
			}
		})
	}
}
