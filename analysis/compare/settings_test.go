package compare

import (
	"slices"
	"strings"
	"testing"
)

// Every setting reads back as it was written, out-of-range values are refused and leave the
// settings as they were, and the defaults are valid.
func TestSettingsByKey(t *testing.T) {
	if err := DefaultSettings.Validate(); err != nil {
		t.Fatal(err)
	}
	s := DefaultSettings
	for _, c := range []struct{ key, text string }{
		{"alpha", "0.01"}, {"min_repeats", "3"}, {"noise_floor", "0.02"}, {"bucket_edges", "512,2048"},
		{"idle_threshold", "5"}, {"required_fields", "seed,model_name"}, {"cold_start_ratio", "4"},
		{"overhead_growth", "0.1"}, {"confidence", "0.9"}, {"bootstrap", "200"}, {"bucket_edges", ""},
		{"slo", "ttft<=200,tpot<=30"}, {"slo_target", "0.95"}, {"detect_change", "0.01"}, {"slo", ""},
	} {
		if err := s.Set(c.key, c.text); err != nil {
			t.Errorf("%s=%s: %v", c.key, c.text, err)
		}
		if got := s.Text(c.key); got != c.text {
			t.Errorf("%s reads back %q, want %q", c.key, got, c.text)
		}
	}
	if len(SettingKeys()) != 13 || !slices.Contains(SettingKeys(), "idle_threshold") {
		t.Errorf("keys %v", SettingKeys())
	}
	before := s
	for _, c := range []struct{ key, text string }{
		{"alpha", "1"}, {"alpha", "x"}, {"min_repeats", "0"}, {"min_repeats", "2.5"}, {"noise_floor", "5"},
		{"bucket_edges", "9,3"}, {"bucket_edges", "1,2,3"}, {"idle_threshold", "100"}, {"confidence", "0"},
		{"bootstrap", "0"}, {"nope", "1"}, {"slo", "ttft<200"}, {"slo", "latency<=5"}, {"slo_target", "0"},
		{"slo_target", "1.5"}, {"detect_change", "1"},
	} {
		if err := s.Set(c.key, c.text); err == nil {
			t.Errorf("%s=%s accepted", c.key, c.text)
		}
	}
	if s.Alpha != before.Alpha || s.MinRepeats != before.MinRepeats || len(s.BucketEdges) != 0 || s.SLO != "" || s.SLOTarget != 0.95 {
		t.Errorf("a refused value changed the settings: %+v", s)
	}
}

// Bug: bootstrap=100000000 (zeros typed by mistake) was accepted and a comparison then ran
// for minutes past 3 GB; the resamples are bounded.
func TestBootstrapBounded(t *testing.T) {
	s := DefaultSettings
	if err := s.Set("bootstrap", "100000000"); err == nil || !strings.Contains(err.Error(), "between 1 and 1000000") {
		t.Errorf("bootstrap=1e8: %v", err)
	}
	if err := s.Set("bootstrap", "1000000"); err != nil {
		t.Errorf("bootstrap=1e6: %v", err)
	}
}
