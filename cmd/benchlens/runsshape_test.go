package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// `runs` says each run's load and request shape, as the app's rows do: five runs at
// concurrency 16 of five shapes (testdata/labruns/five-shapes/random, whose shapes only their
// totals and bundle.yaml's dataset say) are five lines alike but for the shape.
func TestRunsTableSaysLoadAndShape(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	if out, stderr, code := bl(t, "--db", db, "import", filepath.Join("testdata", "labruns", "five-shapes", "random")); code != 0 {
		t.Fatalf("import: exit %d, %q %q", code, out, stderr)
	}
	out, _, _ := bl(t, "--db", db, "runs")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 6 || !strings.Contains(lines[0], "LOAD") || !strings.Contains(lines[0], "SHAPE") {
		t.Fatalf("runs:\n%s", out)
	}
	for i, want := range []string{"≈1000 in", "≈2000 in", "≈5000 in", "≈10000 in", "≈30000 in"} {
		if l := lines[i+1]; !strings.Contains(l, "conc 16  ") || !strings.Contains(l, " "+want+" ") {
			t.Errorf("run line %d does not say conc 16 and %s:\n%s", i+1, want, l)
		}
	}
}
