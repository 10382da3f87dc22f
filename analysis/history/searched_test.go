package history

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"benchlens/model"
)

// A series searched one metric first (FindOf, what the History view draws first) and the
// rest after (Searched) is the report Find makes, change points and outliers in its order,
// whichever metric came first; a metric not yet searched has none of either.
func TestSearchedLaterIsFind(t *testing.T) {
	var runs []*model.Run
	rng := rand.New(rand.NewPCG(3, 13))
	start := time.Date(2026, 1, 1, 2, 0, 0, 0, time.UTC)
	for i := range 120 {
		for _, conc := range []float64{16, 64} {
			r := model.NewRun("vllm")
			r.ID, r.Label = int64(len(runs)+1), "nightly"
			r.Date = start.AddDate(0, 0, i).Format(time.RFC3339)
			r.MaxConcurrency = model.Num(conc)
			level := map[string]float64{model.TTFT: 40, model.TPOT: 12, model.ITL: 12, model.E2EL: 900}
			if i >= 40 { // a prefill step at both points
				level[model.TTFT] = 46
			}
			if i >= 80 && conc == 64 { // a decode step at one
				level[model.TPOT], level[model.ITL], level[model.E2EL] = 13.5, 13.5, 990
			}
			if i == 100 { // a lone outlier
				level[model.E2EL] = 1500
			}
			for m, v := range level {
				r.SetStat(m, "median", v*(1+0.005*rng.NormFloat64()))
				r.SetStat(m, "std", v*0.05)
			}
			r.OutputThroughput = model.Num(1200 * 12 / level[model.TPOT])
			runs = append(runs, r)
		}
	}
	want := Find("nightly", runs, nil, DefaultSettings)
	if len(want.ChangePoints) < 3 || len(want.Outliers) == 0 || len(want.LoadPoints) != 2 {
		t.Fatalf("the series has %d change points, %d outliers, %d load points: not a test of their order",
			len(want.ChangePoints), len(want.Outliers), len(want.LoadPoints))
	}
	for _, first := range model.StageMetrics {
		t.Run(first.Key, func(t *testing.T) {
			part := FindOf("nightly", runs, DefaultSettings, first)
			for _, cp := range part.ChangePoints {
				if cp.Stage != first.Key {
					t.Errorf("searched %s only, and %s has a change point", first.Key, cp.Stage)
				}
			}
			for _, o := range part.Outliers {
				if o.Stage != first.Key {
					t.Errorf("searched %s only, and %s has an outlier", first.Key, o.Stage)
				}
			}
			rest := slices.DeleteFunc(slices.Clone(model.StageMetrics), func(m model.StageMetric) bool { return m.Key == first.Key })
			if got := part.Searched(DefaultSettings, rest...); !reflect.DeepEqual(got, want) {
				t.Errorf("%s then the rest:\n%+v\n%+v\nFind:\n%+v\n%+v", first.Key, got.ChangePoints, got.Outliers, want.ChangePoints, want.Outliers)
			}
		})
	}
}
