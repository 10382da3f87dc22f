package compare_test

import (
	"slices"
	"strings"
	"testing"

	"benchlens/analysis/compare"
	"benchlens/internal/armtest"
	"benchlens/model"
)

// sweep builds an arm that ran spec at each concurrency; tpot gives the spec's TPOT per point.
func sweep(spec armtest.Spec, concurrency []float64, tpot func(c float64) float64) compare.Arm {
	return armtest.Sweep(spec, concurrency, 1000*int64(spec.Seed)+1, tpot)
}

func pointStatuses(rec compare.Record) map[string]model.Status {
	out := map[string]model.Status{}
	for _, p := range rec.LoadPoints {
		out[p.Label] = p.Status
	}
	return out
}

// shape is the request shape armtest's runs declare, as every load point's label shows it.
const shape = " · 1024→64 tok"

func TestLoadPointMatching(t *testing.T) {
	set := compare.DefaultSettings
	set.MinRepeats = 4
	base := armtest.Baseline("base", 1)
	base.Runs = 4
	cand := armtest.Candidate("cand", 2, nil)
	cand.Runs = 4
	faster := func(c float64) float64 { // the gain fades at high concurrency
		if c >= 64 {
			return 12
		}
		return 10.8
	}
	tests := []struct {
		name       string
		base, cand compare.Arm
		status     model.Status
		points     map[string]model.Status
		holds      string
		unmatched  []string
		causes     []model.CauseCode
	}{
		{"same sweep: per-point verdicts, no drift",
			sweep(base, []float64{1, 4, 16, 64}, nil), sweep(cand, []float64{1, 4, 16, 64}, faster),
			model.Established,
			map[string]model.Status{"concurrency 1" + shape: model.Established, "concurrency 4" + shape: model.Established,
				"concurrency 16" + shape: model.Established, "concurrency 64" + shape: model.Zero},
			"established at concurrency 1-16; zero at 64", nil,
			[]model.CauseCode{model.LoadDependent}},
		{"same sweep, every point agrees",
			sweep(base, []float64{1, 64}, nil), sweep(cand, []float64{1, 64}, func(float64) float64 { return 10.8 }),
			model.Established,
			map[string]model.Status{"concurrency 1" + shape: model.Established, "concurrency 64" + shape: model.Established},
			"established at concurrency 1-64", nil, nil},
		{"partial overlap: one-sided points are unmatched, not drift",
			sweep(base, []float64{1, 4, 16}, nil), sweep(cand, []float64{4, 16, 64}, faster),
			model.Established,
			map[string]model.Status{"concurrency 4" + shape: model.Established, "concurrency 16" + shape: model.Established},
			"established at concurrency 4-16",
			[]string{"concurrency 1" + shape + " baseline", "concurrency 64" + shape + " candidate"}, nil},
		{"no point in common: compared as one condition each, which is drift",
			sweep(base, []float64{1, 4}, nil), sweep(cand, []float64{16, 64}, faster),
			model.NotEstablished, map[string]model.Status{}, "",
			[]string{"concurrency 1" + shape + " baseline", "concurrency 4" + shape + " baseline", "concurrency 16" + shape + " candidate", "concurrency 64" + shape + " candidate"},
			[]model.CauseCode{model.LoadDrift}},
		{"one point each at different concurrency: drift, both listed",
			sweep(base, []float64{1}, nil), sweep(cand, []float64{64}, faster),
			model.NotEstablished, map[string]model.Status{}, "",
			[]string{"concurrency 1" + shape + " baseline", "concurrency 64" + shape + " candidate"},
			[]model.CauseCode{model.LoadDrift}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := compare.Compare(tt.base, tt.cand, set)
			if got := pointStatuses(rec); !mapsEqual(got, tt.points) {
				t.Errorf("points %v, want %v", got, tt.points)
			}
			if rec.Status != tt.status || !slices.Equal(codes(rec), tt.causes) {
				t.Errorf("status %s causes %v, want %s %v\n%v", rec.Status, codes(rec), tt.status, tt.causes, rec.Causes)
			}
			if rec.HoldsUnder != tt.holds {
				t.Errorf("holds_under %q, want %q", rec.HoldsUnder, tt.holds)
			}
			var un []string
			for _, u := range rec.Unmatched {
				un = append(un, u.Label+" "+u.Arm)
			}
			if !slices.Equal(un, tt.unmatched) {
				t.Errorf("unmatched %v, want %v", un, tt.unmatched)
			}
			for _, p := range rec.LoadPoints {
				if p.Repeats != (compare.PerArm[int]{Baseline: 4, Candidate: 4}) || len(p.Runs.Baseline) != 4 {
					t.Errorf("%s: repeats %+v runs %v", p.Label, p.Repeats, p.Runs)
				}
				for _, c := range p.Causes {
					if c.Code == model.LoadDrift {
						t.Errorf("%s: load drift inside a matched point: %s", p.Label, c.Reason)
					}
				}
				cv := p.Curve.Baseline
				if !(cv.TTFTP50.Min.F() <= cv.TTFTP50.Median.F() && cv.TTFTP50.Median.F() <= cv.TTFTP50.Max.F() &&
					cv.TTFTP99.Median.F() > cv.TTFTP50.Median.F() && cv.Throughput.Median.F() > 0) {
					t.Errorf("%s: curve %+v", p.Label, cv)
				}
			}
			if len(rec.LoadPoints) > 0 {
				if f := rec.Workload["max_concurrency"]; f.State != model.ConditionSame {
					t.Errorf("max_concurrency %+v: a matched sweep is not drift", f)
				}
			}
		})
	}
}

func mapsEqual(a, b map[string]model.Status) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// A point where the candidate is slower names it in load_dependent's reason.
func TestLoadDependentNamesThePoints(t *testing.T) {
	set := compare.DefaultSettings
	set.MinRepeats = 4
	b, c := armtest.Baseline("base", 1), armtest.Candidate("cand", 2, nil)
	b.Runs, c.Runs = 4, 4
	rec := compare.Compare(sweep(b, []float64{2, 8}, nil), sweep(c, []float64{2, 8}, func(x float64) float64 {
		if x == 8 {
			return 12
		}
		return 10.8
	}), set)
	var reason string
	for _, cause := range rec.Causes {
		if cause.Code == model.LoadDependent {
			reason = cause.Reason
		}
	}
	if !strings.Contains(reason, "established at concurrency 2; not at concurrency 8"+shape+" (zero)") {
		t.Errorf("load_dependent reason %q", reason)
	}
}

// A declared change is reported as the change, not as drift (rule 10).
func TestDeclaredChangeIsNotDrift(t *testing.T) {
	m := armtest.WithField(armtest.FullManifest, "workload.model_name", "m-fp8")
	declared := armtest.WithField(m, "change", map[string]any{"what": "FP8 weights", "fields": []any{"workload.model_name"}})
	for _, tt := range []struct {
		manifest model.Manifest
		status   model.Status
	}{{m, model.NotEstablished}, {declared, model.Established}} {
		c := candidate(func(a *armtest.Spec) { a.TPOT, a.Manifest, a.Model = 10.8, tt.manifest, "m-fp8" })
		rec := compare.Compare(baseline.Build(1), c.Build(100), compare.DefaultSettings)
		if rec.Status != tt.status {
			t.Errorf("status %s, want %s (%v)", rec.Status, tt.status, rec.Causes)
		}
		f := rec.Workload["model_name"]
		if f.State != model.ConditionDiffers || f.Declared != (tt.status == model.Established) {
			t.Errorf("model_name %+v", f)
		}
		if tt.status == model.Established && (rec.Change == nil || rec.Change.What != "FP8 weights" ||
			!strings.Contains(rec.Checklist()[0].Reason, "declared change (FP8 weights): workload.model_name")) {
			t.Errorf("change %+v, conditions %q", rec.Change, rec.Checklist()[0].Reason)
		}
	}
}
