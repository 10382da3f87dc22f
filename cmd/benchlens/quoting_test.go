package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// Every terminal line quotes labels: a label holding an escape sequence and a newline (a
// bundle.yaml can say anything) never prints raw, in any command's output, nor forges a
// line. Before, the "no run has the label" list, history's series line and gate's summary
// printed them as they were.
func TestLabelsNeverPrintRaw(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	evil := "evil\x1b[31mRED\x1b[0m\nforged line"
	for _, args := range [][]string{{"--label", evil, "../../demo/samples/baseline"}, {"../../demo/samples/offset"}} {
		if out, stderr, code := bl(t, append([]string{"--db", db, "import"}, args...)...); code != 0 {
			t.Fatalf("import: exit %d\n%s%s", code, out, stderr)
		}
	}
	if _, stderr, code := bl(t, "--db", db, "compare", "--baseline", evil, "--candidate", "offset", "--save"); code != 0 {
		t.Fatal(stderr)
	}
	for _, args := range [][]string{
		{"compare", "--baseline", "nothere", "--candidate", "offset"},
		{"compare", "--baseline", evil, "--candidate", "offset"},
		{"gate", "--baseline", evil, "--candidate", "offset"},
		{"history", evil},
		{"runs"}, {"show", "1"}, {"comparisons"}, {"reproduce", "1"},
	} {
		out, stderr, _ := bl(t, append([]string{"--db", db}, args...)...)
		for i, line := range strings.Split(out+stderr, "\n") {
			if strings.Contains(line, "\x1b") || strings.HasPrefix(line, "forged line") {
				t.Errorf("%s: line %d prints the label raw: %q", args[0], i+1, line)
			}
		}
	}
}
