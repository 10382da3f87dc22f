package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchlens/internal/pagedamage"
)

// Rescue that rescues: on a damaged library, check lists the damage (which tables, which ids
// do not read), and backup, what the refusal to write advises, saves what reads into a
// library that is whole, and says what was lost (exit 1). Before, check printed only
// "malformed" and backup said "backed up" over a damaged copy. A backup named as one of the
// library's side files (LIB-journal, LIB-wal, LIB-shm) is refused: SQLite took such a file
// for the library's own journal, deleted the copy, and the library stopped opening.
func TestRescueThatRescues(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "lib.db")
	if out, stderr, code := bl(t, "--db", db, "demo"); code != 0 {
		t.Fatalf("demo: exit %d %s %s", code, out, stderr)
	}
	for _, side := range []string{"-journal", "-wal", "-shm"} {
		_, stderr, code := bl(t, "--db", db, "backup", db+side)
		if code != exitRejected || !strings.Contains(stderr, "the library's own file") {
			t.Errorf("backup LIB%s: exit %d %q", side, code, stderr)
		}
	}
	if _, err := os.Stat(db + "-journal"); err == nil {
		t.Error("backup LIB-journal left a journal beside the library")
	}
	if out, _, code := bl(t, "--db", db, "runs"); code != 0 || strings.Count(out, "\n") < 70 {
		t.Fatalf("the library no longer reads after the refused backups: exit %d", code)
	}
	pagedamage.BTreePages(t, db)

	out, stderr, code := bl(t, "--db", db, "check")
	t.Logf("check:\n%s%s", out, stderr)
	for _, want := range []string{"integrity check problems", "tables with rows that do not read", "unreadable", "backup NEW.db"} {
		if code != exitRejected || !strings.Contains(out, want) {
			t.Errorf("check on the damaged library: exit %d, lacks %q", code, want)
		}
	}
	rescued := filepath.Join(dir, "rescued.db")
	out, stderr, code = bl(t, "--db", db, "backup", rescued)
	t.Logf("backup:\n%s%s", out, stderr)
	if code != exitRejected || !strings.Contains(out, "saved what reads") || !strings.Contains(out, "lost: ") {
		t.Errorf("backup of the damaged library: exit %d %q %q", code, out, stderr)
	}
	out, _, code = bl(t, "--db", rescued, "check", "--json")
	if strings.Contains(out, `"integrity": [`) || strings.Contains(out, "unreadable") {
		t.Errorf("the rescued copy is damaged (exit %d):\n%s", code, out)
	}
	if out, stderr, code := bl(t, "--db", rescued, "import", "--label", "after", "../../demo/samples/zero"); code != 0 {
		t.Errorf("the rescued copy takes no import: exit %d %s %s", code, out, stderr)
	}
}
