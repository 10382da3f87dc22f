package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// Impossible settings are refused, by `settings` (nothing stored) and by compare's flags
// (before the library opens), each with a line saying what the setting takes. Before,
// negative bucket edges, an infinite ratio, a misspelt required field and a million
// required repeats were taken.
func TestImpossibleSettingsRefused(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	if _, stderr, code := bl(t, "--db", db, "demo"); code != 0 {
		t.Fatal(stderr)
	}
	before, _, _ := bl(t, "--db", db, "settings")
	for _, tc := range []struct{ key, value, want string }{
		{"bucket_edges", "-10,-5", "not negative"},
		{"bucket_edges", "-5,100", "not negative"},
		{"cold_start_ratio", "inf", "cold_start_ratio must be a number above 1"},
		{"overhead_growth", "+Inf", "overhead_growth must be a number"},
		{"required_fields", "driver_versoin", `no condition field "driver_versoin"`},
		{"min_repeats", "1000000", "min_repeats is at most"},
	} {
		_, stderr, code := bl(t, "--db", db, "settings", tc.key+"="+tc.value)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("settings %s=%s: exit %d %q", tc.key, tc.value, code, stderr)
		}
		flag := "--" + strings.ReplaceAll(tc.key, "_", "-") + "=" + tc.value
		_, stderr, code = bl(t, "--db", db, "compare", "--baseline", "baseline", "--candidate", "offset", flag)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("compare %s: exit %d %q", flag, code, stderr)
		}
	}
	if after, _, _ := bl(t, "--db", db, "settings"); after != before {
		t.Errorf("settings changed:\n%s\nwas\n%s", after, before)
	}
}
