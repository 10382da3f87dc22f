package store

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/s2"
)

// Backup writes a consistent copy of the library to dest (which must not exist), while other
// connections may go on reading and writing; a team library is copied into a library file.
// The copy is private (mode 0600) from its first byte: it is written to a temporary name in
// dest's folder, appears under dest only when whole, and nothing is left behind on failure.
func (s *Store) Backup(dest string) error {
	if _, err := os.Lstat(dest); err == nil {
		return fmt.Errorf("backup %s: the file exists; choose a new name", dest)
	}
	dir, err := filepath.Abs(filepath.Dir(dest)) // absolute: SQLite would read "file:…" as a URI
	if err != nil {
		return fmt.Errorf("backup %s: %w", dest, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(dest)+".part-*") // mode 0600
	if err != nil {
		return fmt.Errorf("backup %s: %w", dest, err)
	}
	tmp.Close()
	fail := func(err error) error {
		for _, f := range LibraryFiles(tmp.Name()) {
			os.Remove(f)
		}
		return fmt.Errorf("backup %s: %w", dest, err)
	}
	if s.db.d.postgres {
		if err := s.copyToFile(tmp.Name()); err != nil {
			return fail(err)
		}
	} else if _, err := s.db.Exec(`VACUUM INTO ?`, tmp.Name()); err != nil { // accepts an empty file, keeps its mode
		return fail(err)
	}
	// A hard link never replaces a file that appeared meanwhile; where links are not
	// supported, a rename after one more look.
	if err := os.Link(tmp.Name(), dest); err != nil {
		if _, serr := os.Lstat(dest); serr == nil {
			return fail(fmt.Errorf("the file appeared meanwhile; choose a new name"))
		}
		if err := os.Rename(tmp.Name(), dest); err != nil {
			return fail(err)
		}
		return nil
	}
	os.Remove(tmp.Name())
	return nil
}

// copyToFile copies the library into a new library file at path (empty, already created).
func (s *Store) copyToFile(path string) error {
	dst, err := Open(path)
	if err != nil {
		return err
	}
	if err := s.CopyTo(dst); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

// backupBeforeMigration keeps the library as it was before a schema change. The name holds
// the process id, so several processes opening an old library at once each keep their own.
func (s *Store) backupBeforeMigration(version int) (string, error) {
	dest := fmt.Sprintf("%s.schema%d-%s-%d.bak", s.path, version, time.Now().UTC().Format("20060102T150405"), os.Getpid())
	return dest, s.Backup(dest)
}

// CheckReport lists what `benchlens check` found; empty lists mean a healthy library.
type CheckReport struct {
	Integrity    []string `json:"integrity"`           // PRAGMA integrity_check, without its "ok"
	ForeignKeys  []string `json:"foreign_keys"`        // rows that point at nothing
	OrphanFiles  []int64  `json:"orphan_files"`        // stored files no run refers to and no running import claims
	MissingBytes []string `json:"files_missing_bytes"` // stored files whose chunks do not add up to their size
	RunsNoResult []int64  `json:"runs_without_result"`
	BadSaved     []string `json:"comparisons_with_missing_runs"`
}

// OK reports whether nothing was found.
func (r CheckReport) OK() bool {
	return len(r.Integrity)+len(r.ForeignKeys)+len(r.OrphanFiles)+len(r.MissingBytes)+len(r.RunsNoResult)+len(r.BadSaved) == 0
}

// Check verifies the library: SQLite's integrity check, foreign keys, and benchlens' own
// invariants (every file belongs to a run or a running import, every file's chunks hold all
// its bytes, every run has its result file, saved comparisons point at existing runs).
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
			vals, err := scanAny(rows, len(cols))
			if err != nil {
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
	// PostgreSQL keeps its pages and enforces foreign keys itself; SQLite is asked.
	if !s.db.d.postgres {
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
	}
	live, err := s.liveOwners()
	if err != nil {
		return r, err
	}
	if r.OrphanFiles, err = ints(`SELECT id FROM source_files f WHERE NOT EXISTS (SELECT 1 FROM run_files rf WHERE rf.source_id = f.id)
		AND NOT EXISTS (SELECT 1 FROM runs WHERE source_id = f.id)
		AND NOT EXISTS (SELECT 1 FROM file_claims c WHERE c.file_id = f.id AND c.owner IN (` + live + `)) ORDER BY id`); err != nil {
		return r, err
	}
	if r.MissingBytes, err = s.missingBytes(); err != nil {
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
		gone, err := s.GoneRuns(c)
		if err != nil {
			return r, err
		}
		for _, g := range gone {
			r.BadSaved = append(r.BadSaved, fmt.Sprintf("comparison %d: run %d is gone (%s)", c.ID, g.ID, g.Why))
		}
	}
	return r, nil
}

// String prints the report, a line per finding.
func (r CheckReport) String() string {
	if r.OK() {
		return "ok"
	}
	// One line per kind of problem, with its count and the first ids or rows.
	some := func(items []string) string {
		const shown = 10
		if len(items) > shown {
			return strings.Join(items[:shown], "; ") + fmt.Sprintf("; … %d more", len(items)-shown)
		}
		return strings.Join(items, "; ")
	}
	ids := func(list []int64) []string {
		out := make([]string, len(list))
		for i, id := range list {
			out[i] = "id " + strconv.FormatInt(id, 10)
		}
		return out
	}
	var lines []string
	add := func(what string, items []string, after string) {
		if len(items) > 0 {
			lines = append(lines, fmt.Sprintf("%s: %d (%s)%s", what, len(items), some(items), after))
		}
	}
	add("integrity check problems", r.Integrity, "")
	add("rows pointing at nothing", r.ForeignKeys, "")
	add("orphan files, no run refers to them", ids(r.OrphanFiles), ": run benchlens check --repair to remove them")
	add("files missing bytes", r.MissingBytes, ": import them again to restore the bytes")
	add("runs without their result file", ids(r.RunsNoResult), "")
	add("saved comparisons with missing runs", r.BadSaved, "")
	return strings.Join(lines, "\n")
}

// liveOwners lists, for an IN clause, the imports holding claims that are still running.
func (s *Store) liveOwners() (string, error) {
	live, _, err := s.claimOwners(s.db)
	if err != nil {
		return "", err
	}
	quoted := []string{"''"}
	for _, owner := range live {
		quoted = append(quoted, "'"+strings.ReplaceAll(owner, "'", "''")+"'")
	}
	return strings.Join(quoted, ","), nil
}

// missingBytes decodes each chunk's length and compares the sum with the file's size.
func (s *Store) missingBytes() ([]string, error) {
	rows, err := s.db.Query(`SELECT f.id, f.name, f.size, c.content FROM source_files f
		LEFT JOIN file_chunks c ON c.file_id = f.id ORDER BY f.id, c.seq`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	var id, size, sum int64 = -1, 0, 0
	var name string
	flush := func() {
		if id >= 0 && sum != size {
			out = append(out, fmt.Sprintf("file %d (%s): %d bytes, its chunks hold %d; import it again to restore them", id, name, size, sum))
		}
	}
	for rows.Next() {
		var fid, fsize int64
		var fname string
		var blob []byte
		if err := rows.Scan(&fid, &fname, &fsize, &blob); err != nil {
			return nil, err
		}
		if fid != id {
			flush()
			id, name, size, sum = fid, fname, fsize, 0
		}
		if blob != nil {
			n, err := s2.DecodedLen(blob)
			if err != nil {
				n = 0 // a damaged chunk holds nothing readable
			}
			sum += int64(n)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	flush()
	return out, nil
}

// Repair removes what a killed import leaves: the claims of processes no longer running and
// every stored file no run refers to. It returns how many files went. Files missing bytes
// are not touched: importing them again restores the bytes.
func (s *Store) Repair() (int, error) {
	return s.ReleaseFiles("")
}
