package main

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"benchlens/internal/pgtest"
	"benchlens/store"
)

// backup --to postgres:// copies from a read snapshot of the library file: an import (or an
// autosave) meanwhile is stored at once, and the copy is the library as it was when the
// backup began. Before, the copy held the library's write lock throughout, and writers
// failed after 10 s with "database is locked".
func TestBackupToTeamLibraryLetsWritersOn(t *testing.T) {
	file := filepath.Join(t.TempDir(), "lib.db")
	if _, stderr, code := bl(t, "--db", file, "import", "../../demo/samples/baseline"); code != 0 {
		t.Fatalf("import: %s", stderr)
	}
	team := pgtest.NewDatabase(t)
	st, err := store.Open(team) // the empty team library, its tables made
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	// Hold the copy part-way: another session locks the team library's runs table.
	pg, err := sql.Open("pgx", team)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	lock, err := pg.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lock.Exec(`LOCK TABLE runs IN ACCESS EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
	type result struct {
		out, stderr string
		code        int
	}
	backup := make(chan result, 1)
	go func() {
		out, stderr, code := bl(t, "--db", file, "backup", "--to", team)
		backup <- result{out, stderr, code}
	}()
	for waiting := 0; waiting == 0; time.Sleep(20 * time.Millisecond) {
		pg.QueryRow(`SELECT count(*) FROM pg_locks WHERE NOT granted`).Scan(&waiting)
	}
	start := time.Now()
	out, stderr, code := bl(t, "--db", file, "import", "--label", "during", "../../demo/samples/zero")
	if code != 0 || !strings.Contains(out, "imported 5 runs") || time.Since(start) > 5*time.Second {
		t.Errorf("import during the backup: exit %d after %v: %s %s", code, time.Since(start), out, stderr)
	}
	lock.Rollback()
	if r := <-backup; r.code != 0 {
		t.Fatalf("backup --to: exit %d %s %s", r.code, r.out, r.stderr)
	}
	if out, _, _ := bl(t, "--db", team, "runs"); strings.Contains(out, "during") || strings.Count(out, "baseline") < 5 {
		t.Errorf("the copy is not the library as the backup began:\n%s", out)
	}
}
