package store

import (
	"encoding/json"
	"fmt"
	"os"
	"time"
)

// Backup writes a consistent copy of the library to dest (which must not exist), while other
// connections may go on reading and writing. The copy is private (mode 0600).
func (s *Store) Backup(dest string) error {
	if _, err := os.Stat(dest); err == nil {
		return fmt.Errorf("backup %s: the file exists; choose a new name", dest)
	}
	f, err := os.OpenFile(dest, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("backup %s: %w", dest, err)
	}
	f.Close()
	os.Remove(dest) // VACUUM INTO creates it; the empty file only proved we may
	if _, err := s.db.Exec(`VACUUM INTO ?`, dest); err != nil {
		return fmt.Errorf("backup %s: %w", dest, err)
	}
	return os.Chmod(dest, 0o600)
}

// backupBeforeMigration keeps the library as it was before a schema change.
func (s *Store) backupBeforeMigration(version int) (string, error) {
	dest := fmt.Sprintf("%s.schema%d-%s.bak", s.path, version, time.Now().UTC().Format("20060102T150405"))
	return dest, s.Backup(dest)
}

// CheckReport lists what `benchlens check` found; empty lists mean a healthy library.
type CheckReport struct {
	Integrity    []string `json:"integrity"`    // PRAGMA integrity_check, without its "ok"
	ForeignKeys  []string `json:"foreign_keys"` // rows that point at nothing
	OrphanFiles  []int64  `json:"orphan_files"` // stored files no run refers to
	RunsNoResult []int64  `json:"runs_without_result"`
	BadSaved     []string `json:"comparisons_with_missing_runs"`
}

// OK reports whether nothing was found.
func (r CheckReport) OK() bool {
	return len(r.Integrity)+len(r.ForeignKeys)+len(r.OrphanFiles)+len(r.RunsNoResult)+len(r.BadSaved) == 0
}

// Check verifies the library: SQLite's integrity check, foreign keys, and benchlens' own
// invariants (every file belongs to a run, every run has its result file, saved comparisons
// point at existing runs).
func (s *Store) Check() (CheckReport, error) {
	var r CheckReport
	strs := func(q string) ([]string, error) {
		rows, err := s.db.Query(q)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		var out []string
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				return nil, err
			}
			out = append(out, fmt.Sprint(vals...))
		}
		return out, rows.Err()
	}
	ints := func(q string) ([]int64, error) {
		rows, err := s.db.Query(q)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var out []int64
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				return nil, err
			}
			out = append(out, id)
		}
		return out, rows.Err()
	}
	var err error
	integrity, err := strs(`PRAGMA integrity_check`)
	if err != nil {
		return r, err
	}
	for _, m := range integrity {
		if m != "ok" {
			r.Integrity = append(r.Integrity, m)
		}
	}
	if r.ForeignKeys, err = strs(`PRAGMA foreign_key_check`); err != nil {
		return r, err
	}
	if r.OrphanFiles, err = ints(`SELECT id FROM source_files f WHERE NOT EXISTS (SELECT 1 FROM run_files rf WHERE rf.source_id = f.id)
		AND NOT EXISTS (SELECT 1 FROM runs WHERE source_id = f.id) ORDER BY id`); err != nil {
		return r, err
	}
	if r.RunsNoResult, err = ints(`SELECT id FROM runs r WHERE NOT EXISTS (SELECT 1 FROM run_files rf WHERE rf.run_id = r.id AND rf.role = 'result') ORDER BY id`); err != nil {
		return r, err
	}
	list, err := s.Comparisons(false)
	if err != nil {
		return r, err
	}
	for _, c := range list {
		for _, id := range append(append([]int64(nil), c.BaselineRuns...), c.CandidateRuns...) {
			var n int
			if err := s.db.QueryRow(`SELECT count(*) FROM runs WHERE id = ?`, id).Scan(&n); err != nil {
				return r, err
			}
			if n == 0 {
				r.BadSaved = append(r.BadSaved, fmt.Sprintf("comparison %d: run %d is gone", c.ID, id))
			}
		}
	}
	return r, nil
}

// String prints the report, a line per finding.
func (r CheckReport) String() string {
	if r.OK() {
		return "ok"
	}
	b, _ := json.MarshalIndent(r, "", "  ")
	return string(b)
}
