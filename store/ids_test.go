package store

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"benchlens/internal/pgtest"
)

// addRuns stores n runs with fingerprints prefix-1 … prefix-n and returns their ids.
func addRuns(t *testing.T, s *Store, prefix string, n int) []int64 {
	t.Helper()
	var ids []int64
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("%s-%d", prefix, i)
		id, err := s.AddRun(NewRun{Run: sampleRun("vllm"), Fingerprint: name, Files: []Attached{resultFile(name)}})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

// The id of a deleted run, or of its deleted file, is never handed out again, in either
// engine, and check names the saved comparison whose run went.
func TestRunIdsNeverReused(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ids := addRuns(t, s, "a", 3)
		var file int64
		s.db.QueryRow(`SELECT max(id) FROM source_files`).Scan(&file)
		if _, err := s.SaveComparison(Comparison{Baseline: "a", Candidate: "b", BaselineRuns: ids[:1], CandidateRuns: ids[2:],
			Settings: []byte("{}"), Record: []byte("{}"), Status: "zero"}); err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteRun(ids[2]); err != nil {
			t.Fatal(err)
		}
		next := addRuns(t, s, "b", 1)[0]
		var nextFile int64
		s.db.QueryRow(`SELECT max(id) FROM source_files`).Scan(&nextFile)
		if next <= ids[2] || nextFile <= file {
			t.Errorf("after deleting run %d (file %d) the next import got run %d, file %d", ids[2], file, next, nextFile)
		}
		rep, err := s.Check()
		if err != nil || len(rep.BadSaved) != 1 || !strings.Contains(rep.BadSaved[0], fmt.Sprintf("run %d is gone (deleted)", ids[2])) {
			t.Errorf("check: %v %v", rep.BadSaved, err)
		}
	})
}

// schema8 writes a library as benchlens wrote it at schema 8 (ids without AUTOINCREMENT),
// holding runs 1-3 of which 3 is deleted and named by a saved comparison, and a comparison
// saved before runs 1 and 2 were imported (their ids reused).
func schema8(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // one session: its foreign keys on, so the delete cascades as benchlens' did
	stmts := []string{`PRAGMA foreign_keys = ON`, `PRAGMA page_size = 65536`, `PRAGMA journal_mode = WAL`}
	for v := range 8 {
		stmts = append(stmts, sqliteDialect.migration(v)...)
	}
	now := "2025-01-02T03:04:05Z"
	for id := 1; id <= 3; id++ {
		stmts = append(stmts,
			fmt.Sprintf(`INSERT INTO source_files VALUES (%d, 'sha%d', 'r%d.json', 1, 'result', '%s')`, id, id, id, now),
			fmt.Sprintf(`INSERT INTO runs VALUES (%d, 'fp%d', %d, 0, 'b', 'l', 'baseline', 'vllm', 'm', '', '{}', '{}', '{}', '{}', '{}', '%s')`, id, id, id, now),
			fmt.Sprintf(`INSERT INTO run_files VALUES (%d, %d, 'result')`, id, id),
			fmt.Sprintf(`INSERT INTO requests (run_id, idx, error) VALUES (%d, 0, '')`, id))
	}
	stmts = append(stmts,
		`INSERT INTO comparisons VALUES (1, '2025-01-02T03:05:00Z', 'l', 'l', '[1]', '[3]', '{}', 'zero', '{}')`,
		// Saved before runs 1 and 2 were imported: their ids were handed out again since.
		`INSERT INTO comparisons VALUES (2, '2025-01-01T00:00:00Z', 'l', 'l', '[1]', '[2]', '{}', 'zero', '{}')`,
		`INSERT INTO annotations (id, comparison_id, at, author, note, tags, status_override, override_reason) VALUES (1, 1, '', 'ana', 'kept', '[]', '', '')`,
		`DELETE FROM runs WHERE id = 3`, `PRAGMA user_version = 8`)
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(q, err)
		}
	}
}

// A schema-8 library is backed up, then migrated keeping every row (no cascade fires while
// its tables are rebuilt); the id of the deleted run its comparison names is not handed out.
func TestMigrationKeepsRowsAndRetiresIds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lib.db")
	schema8(t, path)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for table, want := range map[string]int{"runs": 2, "requests": 2, "run_files": 2, "source_files": 3, "comparisons": 2, "annotations": 1} {
		if n := count(t, s, table); n != want {
			t.Errorf("%s: %d rows after the migration, want %d", table, n, want)
		}
	}
	if backups, _ := filepath.Glob(path + ".schema8-*.bak"); len(backups) != 1 {
		t.Errorf("backups before migrating: %v", backups)
	}
	if next := addRuns(t, s, "new", 1)[0]; next != 4 {
		t.Errorf("the first run after the migration is %d, want 4 (3 is named by comparison 1)", next)
	}
	rep, err := s.Check()
	if err != nil || len(rep.ForeignKeys) != 0 {
		t.Errorf("check after the migration: %+v %v", rep, err)
	}
	want := []string{"comparison 1: run 3 is gone (deleted)",
		"comparison 2: run 1 is gone (its id now names a run imported 2025-01-02T03:04:05Z, after the comparison was saved at 2025-01-01T00:00:00Z)",
		"comparison 2: run 2 is gone (its id now names a run imported 2025-01-02T03:04:05Z, after the comparison was saved at 2025-01-01T00:00:00Z)"}
	if !slices.Equal(rep.BadSaved, want) {
		t.Errorf("check: %q\nwant %q", rep.BadSaved, want)
	}
}

// A team library at schema 8 whose run sequence was set back by a copy (max id + 1) moves
// past the run ids its comparisons name.
func TestPostgresMigrationRetiresIds(t *testing.T) {
	loc := pgtest.NewDatabase(t)
	s, err := Open(loc)
	if err != nil {
		t.Fatal(err)
	}
	ids := addRuns(t, s, "a", 3)
	if _, err := s.SaveComparison(Comparison{Baseline: "a", Candidate: "b", BaselineRuns: ids[:1], CandidateRuns: ids[2:],
		Settings: []byte("{}"), Record: []byte("{}"), Status: "zero"}); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteRun(ids[2]); err != nil {
		t.Fatal(err)
	}
	// Back to schema 8: the runs hold their manifests again, the shared rows, listings and
	// measured statistics go.
	for _, q := range []string{`UPDATE runs SET manifest = (SELECT content FROM manifests m WHERE m.id = runs.manifest_id)`,
		`ALTER TABLE runs DROP COLUMN manifest_id`, `DROP TABLE manifests`, `ALTER TABLE runs DROP COLUMN listing`, `ALTER TABLE runs DROP COLUMN point`, `ALTER TABLE runs DROP COLUMN measured`, `DROP INDEX runs_label_role`,
		`SELECT setval(pg_get_serial_sequence('runs', 'id'), 2, true)`, `UPDATE benchlens_schema SET version = 8`} {
		if _, err := s.db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	if s, err = Open(loc); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if next := addRuns(t, s, "b", 1)[0]; next <= ids[2] {
		t.Errorf("after the migration the next run is %d, reusing %d", next, ids[2])
	}
}

// A copy between libraries keeps each table's high-water mark: ids deleted in the source are
// not handed out in the copy either, in both directions.
func TestCopyKeepsRetiredIds(t *testing.T) {
	file, _ := openTemp(t)
	ids := addRuns(t, file, "a", 3)
	if err := file.DeleteRun(ids[2]); err != nil {
		t.Fatal(err)
	}
	team, err := Open(pgtest.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer team.Close()
	if err := file.CopyTo(team); err != nil {
		t.Fatal(err)
	}
	back, err := Open(filepath.Join(t.TempDir(), "back.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer back.Close()
	if err := team.CopyTo(back); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*Store{team, back} {
		if next := addRuns(t, s, "b", 1)[0]; next != ids[2]+1 {
			t.Errorf("%s: the next run after the copy is %d, want %d", s.Engine(), next, ids[2]+1)
		}
	}
}
