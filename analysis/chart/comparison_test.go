package chart_test

import (
	"benchlens/internal/armtest"
	"slices"
	"strings"
	"testing"

	"benchlens/analysis/chart"
	"benchlens/analysis/compare"
)

func keys[M ~map[string]V, V any](m M) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func TestForComparisonKeys(t *testing.T) {
	base, cand := armtest.MixedArms()
	rec := compare.Compare(base, cand, compare.Settings{})
	all, _, err := chart.ForComparison(base, cand, rec, chart.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := slices.DeleteFunc(slices.Clone(chart.Keys), func(k string) bool { return strings.HasPrefix(k, "load_") || strings.HasPrefix(k, "slo_") }) // one load point, no SLO
	slices.Sort(want)
	if got := keys(all); !slices.Equal(got, want) {
		t.Fatalf("keys %v, want %v", got, want)
	}
	if all["itl_cdf"].Y.Label.Text != "share of token gaps" {
		t.Errorf("itl_cdf y label %q", all["itl_cdf"].Y.Label.Text)
	}
	s, b := all["stage_deltas"], all["bucket_deltas"]
	if s.Y.Min != b.Y.Min || s.Y.Max != b.Y.Max {
		t.Errorf("delta charts do not share y: %v..%v vs %v..%v", s.Y.Min, s.Y.Max, b.Y.Min, b.Y.Max)
	}
	for _, k := range want {
		if _, err := chart.SVG(all[k], 800, 500); err != nil {
			t.Errorf("%s: %v", k, err)
		}
	}
}

func TestForComparisonOmits(t *testing.T) {
	base, cand := armtest.MixedArms()
	// No utilisation anywhere, and a candidate without per-request data.
	for _, a := range []*compare.Arm{&base, &cand} {
		for i := range a.Runs {
			a.Runs[i].Util = nil
		}
	}
	for i := range cand.Runs {
		r := *cand.Runs[i].Run
		r.Requests = nil
		cand.Runs[i].Run = &r
	}
	all, _, err := chart.ForComparison(base, cand, compare.Record{}, chart.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := keys(all), []string{"itl_cdf", "tpot_cdf", "ttft_cdf"}; !slices.Equal(got, want) {
		t.Fatalf("keys %v, want %v", got, want)
	}
	if !strings.Contains(all["ttft_cdf"].Title.Text, "fa-candidate: no per-request samples") {
		t.Errorf("title %q does not say the candidate has no samples", all["ttft_cdf"].Title.Text)
	}
	none, _, err := chart.ForComparison(compare.Arm{}, compare.Arm{}, compare.Record{}, chart.Options{})
	if err != nil || len(none) != 0 {
		t.Fatalf("empty comparison: %v, %v", keys(none), err)
	}
}
