package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchlens/store"
)

// Ids are never reused: after runs are deleted (the app's Delete), the next import gets new
// ids, so a saved comparison never comes to point at an unrelated run; `check` names the
// comparisons whose runs are gone, and `export` still writes every saved comparison, saying
// which runs are gone. Before, the next import took run id 15 again and check said ok, and
// one deleted run failed the export of every comparison.
func TestIdsNeverReused(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "lib.db")
	for _, arm := range [][2]string{{"a", "baseline"}, {"b", "fallback"}, {"c", "offset"}} {
		if out, stderr, code := bl(t, "--db", db, "import", "--label", arm[0], "../../demo/samples/"+arm[1]); code != 0 || !strings.Contains(out, "imported 5 runs") {
			t.Fatalf("import %s: exit %d %s %s", arm[1], code, out, stderr)
		}
	}
	for _, pair := range [][2]string{{"a", "b"}, {"a", "c"}} {
		if _, stderr, code := bl(t, "--db", db, "compare", "--baseline", pair[0], "--candidate", pair[1], "--save"); code != 0 {
			t.Fatalf("compare %v: exit %d %s", pair, code, stderr)
		}
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []int64{15, 8} { // the newest run (comparison 2), one of comparison 1's
		if err := st.DeleteRun(id); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	if out, stderr, code := bl(t, "--db", db, "import", "--label", "d", "../../demo/samples/zero"); code != 0 || !strings.Contains(out, "imported 5 runs") {
		t.Fatalf("import zero: exit %d %s %s", code, out, stderr)
	}
	out, _, _ := bl(t, "--db", db, "runs", "--json")
	if strings.Contains(out, `"id": 15,`) || !strings.Contains(out, `"id": 16,`) || !strings.Contains(out, `"id": 20,`) {
		t.Errorf("the new runs are not 16-20:\n%.2000s", out)
	}
	out, _, code := bl(t, "--db", db, "check")
	for _, want := range []string{"saved comparisons with missing runs: 2", "comparison 1: run 8 is gone (deleted)", "comparison 2: run 15 is gone (deleted)"} {
		if code != exitRejected || !strings.Contains(out, want) {
			t.Errorf("check: exit %d, lacks %q:\n%s", code, want, out)
		}
	}
	yml := filepath.Join(dir, "all.yaml")
	if out, stderr, code := bl(t, "--db", db, "export", "--yaml", yml); code != 0 {
		t.Fatalf("export: exit %d %s %s", code, out, stderr)
	}
	data, _ := os.ReadFile(yml)
	for _, want := range []string{"run 8 is no longer in the library (deleted)", "run 15 is no longer in the library (deleted)", "label: c", "label: b"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the export lacks %q", want)
		}
	}
	for _, args := range [][]string{{"--xlsx", filepath.Join(dir, "all.xlsx")}, {"--csv", filepath.Join(dir, "csv")}, {"--md", filepath.Join(dir, "all.md")}, {"--png", filepath.Join(dir, "png")}} {
		if out, stderr, code := bl(t, append([]string{"--db", db, "export"}, args...)...); code != 0 {
			t.Errorf("export %s: exit %d %s %s", args[0], code, out, stderr)
		}
	}
}
