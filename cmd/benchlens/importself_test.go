package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The library never imports itself: importing the folder that holds it (and a hard link to
// it, and the file by name) skips the library and its -wal and -shm by identity, with a line
// each, and the library does not grow with each re-import. Before, each import stored the
// library in itself beside the runs (10 MB → 98 MB after 4).
func TestLibraryNeverImportsItself(t *testing.T) {
	lab := filepath.Join(t.TempDir(), "lab")
	if err := os.MkdirAll(lab, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("cp", "-r", "../../demo/samples/baseline", lab).CombinedOutput(); err != nil {
		t.Fatal(err, string(out))
	}
	db := filepath.Join(lab, "lib.db")
	if out, stderr, code := bl(t, "--db", db, "import", filepath.Join(lab, "baseline")); code != 0 || !strings.Contains(out, "imported 5 runs") {
		t.Fatalf("first import: exit %d %s %s", code, out, stderr)
	}
	if err := os.Link(db, filepath.Join(lab, "linked.db")); err != nil {
		t.Fatal(err)
	}
	size := func() int64 {
		var n int64
		for _, f := range []string{db, db + "-wal"} {
			if fi, err := os.Stat(f); err == nil {
				n += fi.Size()
			}
		}
		return n
	}
	before := size()
	for i := range 3 {
		out, stderr, code := bl(t, "--db", db, "import", lab, db)
		all := out + stderr
		if code != 0 || !strings.Contains(out, "imported 0 runs") {
			t.Fatalf("import %d: exit %d %s %s", i, code, out, stderr)
		}
		for _, want := range []string{"lab/lib.db: the library this import writes to: never imported into itself",
			"lab/linked.db: the library this import writes to: never imported into itself"} {
			if strings.Count(all, want) < 1 {
				t.Errorf("import %d lacks %q:\n%s", i, want, all)
			}
		}
		if !strings.Contains(all, "-wal: a side file of the library this import writes to: never imported into itself") {
			t.Errorf("import %d does not skip the -wal:\n%s", i, all)
		}
	}
	if after := size(); after > before+before/10 {
		t.Errorf("the library grew from %d to %d bytes over 3 imports of its own folder", before, after)
	}
	out, _, _ := bl(t, "--db", db, "show", "1")
	if strings.Contains(out, "lib.db") {
		t.Errorf("run 1 lists the library among its files:\n%s", out)
	}
}
