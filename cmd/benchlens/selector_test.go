package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// A label that looks like a run id ("9") is the label when a run has it, and compare says
// which was taken and how to name the run instead (ids:9). Before, "9" was always run 9.
func TestLabelThatLooksLikeAnID(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	// The baseline arm (runs 1-5) labelled "9"; run 9 is the offset arm's (6-10).
	for _, args := range [][]string{{"--label", "9", "../../demo/samples/baseline"}, {"../../demo/samples/offset"}, {"../../demo/samples/zero"}} {
		if out, stderr, code := bl(t, append([]string{"--db", db, "import"}, args...)...); code != 0 {
			t.Fatalf("import %v: exit %d %s%s", args, code, out, stderr)
		}
	}
	out, stderr, code := bl(t, "--db", db, "compare", "--baseline", "9", "--candidate", "offset")
	if code != 0 || !strings.Contains(out, "baseline:  9 (5 runs: 1,2,3,4,5)") {
		t.Errorf("compare --baseline 9: exit %d\n%.500s\n%s", code, out, stderr)
	}
	if want := `"9" is a label of this library: took its 5 runs (1,2,3,4,5), not run ids 9; give ids:9 for those`; !strings.Contains(stderr, want) {
		t.Errorf("compare does not say which was taken:\n%s\nwant %s", stderr, want)
	}
	out, stderr, code = bl(t, "--db", db, "compare", "--baseline", "ids:9,10", "--candidate", "zero")
	if code != 0 || !strings.Contains(out, "(2 runs: 9,10)") || strings.Contains(stderr, "is a label") {
		t.Errorf("compare --baseline ids:9,10: exit %d\n%.500s\n%s", code, out, stderr)
	}
	// Where no label is "12", 12 is run 12, without a note.
	out, stderr, code = bl(t, "--db", db, "compare", "--baseline", "12", "--candidate", "offset")
	if code != 0 || !strings.Contains(out, "(1 run: 12)") || stderr != "" {
		t.Errorf("compare --baseline 12: exit %d\n%.500s\n%s", code, out, stderr)
	}
}
