package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCompareAcceptsOverlappingArms: compare took --baseline 1,2 --candidate 2,3 (and a label
// against itself) with no word, and named the candidate by its first run's label.
func TestCompareAcceptsOverlappingArms(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	if _, stderr, code := bl(t, "--db", db, "import", fixtures); code != 0 {
		t.Fatalf("import: exit %d %s", code, stderr)
	}
	for _, tt := range []struct{ base, cand, want string }{
		{"1,2", "2,3", `the baseline "results" and the candidate "2,3" share run(s) 2`},
		{"results", "results", `the baseline "results" and the candidate "results" share run(s) 1, 2, 4`},
		{"3", "3", `the baseline "agg_n50_in128_out64_c8" and the candidate "agg_n50_in128_out64_c8" share run(s) 3`},
	} {
		out, stderr, code := bl(t, "--db", db, "compare", "--baseline", tt.base, "--candidate", tt.cand)
		if code != exitUsage || !strings.Contains(stderr, tt.want) || out != "" {
			t.Errorf("%s vs %s: exit %d, stderr %q, stdout %q; want exit 2 and %q", tt.base, tt.cand, code, stderr, out, tt.want)
		}
	}
	if _, stderr, code := bl(t, "--db", db, "compare", "--baseline", "1", "--candidate", "2"); code != 0 {
		t.Errorf("distinct arms: exit %d %s", code, stderr)
	}
}

// TestReimportKeepsTheOldLabelSilently: importing again with --label b kept label a without a
// word, and "1 already in the library" named no run.
func TestReimportKeepsTheOldLabelSilently(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	file := filepath.Join(fixtures, "07_result-short-rate1.json")
	if _, stderr, code := bl(t, "--db", db, "import", "--label", "a", file); code != 0 {
		t.Fatalf("import: exit %d %s", code, stderr)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--label", "b"}, "run(s) 1 already in the library, stored as a/other, not b/other: a re-import keeps them so; relabel them in the app (Library, Relabel)\n"},
		{[]string{"--label", "a"}, "run(s) 1 already in the library\n"},
	} {
		out, stderr, code := bl(t, append(append([]string{"--db", db, "import"}, tt.args...), file)...)
		if code != 0 || out != "imported 0 runs, 1 already in the library\n" || !strings.HasPrefix(stderr, "already: ") || !strings.HasSuffix(stderr, tt.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %q", tt.args, code, out, stderr, tt.want)
		}
	}
}
