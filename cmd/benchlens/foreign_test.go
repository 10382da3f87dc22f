package main

import (
	"bytes"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Another program's SQLite file is never touched, whatever user_version it sets (1 to 8 are
// the numbers of benchlens' own schemas; its own tables or none), in rollback-journal or WAL
// mode: every command refuses it with a line naming another program, and the file keeps
// every byte, with no -wal, -shm or -journal beside it. Before, `runs` switched such a file
// to WAL, added benchlens' tables and bumped its version, then failed.
func TestForeignSQLiteFileUntouched(t *testing.T) {
	dir := t.TempDir()
	type foreign struct {
		name  string
		stmts []string
	}
	var files []foreign
	for v := 1; v <= 8; v++ {
		files = append(files,
			foreign{fmt.Sprintf("notes-v%d.db", v), []string{`CREATE TABLE notes (x)`, `INSERT INTO notes VALUES (1)`, fmt.Sprintf(`PRAGMA user_version = %d`, v)}},
			foreign{fmt.Sprintf("empty-v%d.db", v), []string{fmt.Sprintf(`PRAGMA user_version = %d`, v)}})
	}
	files = append(files,
		foreign{"wal-v3.db", []string{`PRAGMA journal_mode = WAL`, `CREATE TABLE notes (x)`, `PRAGMA user_version = 3`}},
		foreign{"wal-v0.db", []string{`PRAGMA journal_mode = WAL`, `CREATE TABLE notes (x)`}},
		foreign{"runs-v2.db", []string{`CREATE TABLE runs (id INTEGER PRIMARY KEY)`, `CREATE TABLE source_files (x)`, `PRAGMA user_version = 2`}})
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		db, err := sql.Open("sqlite3", p)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range f.stmts {
			if _, err := db.Exec(q); err != nil {
				t.Fatal(f.name, q, err)
			}
		}
		db.Close()
		before, err := os.ReadFile(p)
		if err != nil || len(before) == 0 {
			t.Fatalf("%s: %d bytes, %v", f.name, len(before), err)
		}
		for _, args := range [][]string{{"runs"}, {"check"}, {"import", "../../demo/samples/baseline"}, {"settings", "alpha=0.01"}} {
			_, stderr, code := bl(t, append([]string{"--db", p}, args...)...)
			if code == 0 || !strings.Contains(stderr, "another program") || !strings.Contains(stderr, "nothing was changed") {
				t.Errorf("%s %s: exit %d %q", f.name, args[0], code, stderr)
			}
			if after, _ := os.ReadFile(p); !bytes.Equal(before, after) {
				t.Fatalf("%s %s: the file changed", f.name, args[0])
			}
			for _, side := range []string{"-wal", "-shm", "-journal"} {
				if _, err := os.Stat(p + side); err == nil {
					t.Fatalf("%s %s: %s created beside it", f.name, args[0], side)
				}
			}
		}
	}
}
