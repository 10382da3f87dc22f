package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// --db is a path, not a URI: a library named with '?', '#' or '%' is that file, and two
// names SQLite's URI reading would take for one (`lab%41.db`, `labA.db`) are two libraries.
// Before, `lib?x.db` wrote into `lib`, `run#1.db` into `run`, `lab%41.db` into `labA.db`.
// A backup under such a name, or into a folder named `file:…`, is written where it says.
func TestDBIsAPath(t *testing.T) {
	demo, err := filepath.Abs("../../demo/samples/baseline")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	names := []string{"lib?x.db", "run#1.db", "lab%41.db", "sp ace&x=1.db", "file:lib.db"}
	for _, name := range names {
		if out, stderr, code := bl(t, "--db", name, "import", "--label", name, demo); code != 0 || !strings.Contains(out, "imported 5 runs") {
			t.Fatalf("%s: import: exit %d %s %s", name, code, out, stderr)
		}
	}
	if out, stderr, code := bl(t, "--db", "labA.db", "import", "--label", "labA.db", demo); code != 0 || !strings.Contains(out, "imported 5 runs") {
		t.Fatalf("labA.db: import: exit %d %s %s (the runs went into lab%%41.db's file?)", code, out, stderr)
	}
	for _, name := range append(names, "labA.db") {
		out, _, code := bl(t, "--db", name, "runs")
		if code != 0 || strings.Count(out, name) != 5 {
			t.Errorf("%s: runs: exit %d, want its own 5 runs:\n%s", name, code, out)
		}
	}
	entries, _ := os.ReadDir(dir)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	for _, stray := range []string{"lib", "run", "lab", "sp ace&x=1.db?", "lib.db"} {
		if slices.Contains(got, stray) {
			t.Errorf("%s written: %v", stray, got)
		}
	}
	if err := os.Mkdir("file:dir", 0o700); err != nil {
		t.Fatal(err)
	}
	for _, dest := range []string{"back?up.db", "file:dir/b#1.db"} {
		if out, stderr, code := bl(t, "--db", "lib?x.db", "backup", dest); code != 0 {
			t.Fatalf("backup %s: exit %d %s %s", dest, code, out, stderr)
		}
		if out, _, code := bl(t, "--db", dest, "runs"); code != 0 || strings.Count(out, "lib?x.db") != 5 {
			t.Errorf("backup %s: runs: exit %d:\n%s", dest, code, out)
		}
	}
	if _, err := os.Stat("dir"); err == nil {
		t.Error(`the backup into "file:dir" went to "dir"`)
	}
}
