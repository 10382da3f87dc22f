package store

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Backup writes a consistent copy of the library to dest (which must not exist, nor be one of
// the library's side files), while other connections may go on reading and writing; a team
// library is copied into a library file. A damaged library (SQLite's quick check over all
// of it) is copied row by row, saving what reads: the Rescue says what was lost; it is nil
// for a whole library. The copy is private (mode 0600) from its first byte: it is written
// to a temporary name in dest's folder, appears under dest only when whole, and nothing is
// left behind on failure.
func (s *Store) Backup(dest string) (*Rescue, error) {
	return s.BackupContext(context.Background(), dest)
}

// BackupContext is Backup, stopped when ctx is done (SIGINT or SIGTERM): the copy so far is
// removed, nothing is left under dest or beside it, and the error says so.
func (s *Store) BackupContext(ctx context.Context, dest string) (*Rescue, error) {
	return s.backup(ctx, dest, false)
}

// backup is BackupContext; pagesChecked says the whole library's pages were just checked and
// found whole (the check before a migration's first write), so they are not checked again.
func (s *Store) backup(ctx context.Context, dest string, pagesChecked bool) (*Rescue, error) {
	if lib := LibraryFileAt(s.path, dest); lib != "" {
		return nil, fmt.Errorf("backup %s: that is the library's own file (%s); choose a new name", dest, lib)
	}
	if _, err := os.Lstat(dest); err == nil {
		return nil, fmt.Errorf("backup %s: the file exists; choose a new name", dest)
	}
	for _, side := range LibraryFiles(dest)[1:] {
		if _, err := os.Lstat(side); err == nil {
			return nil, fmt.Errorf("backup %s: %s exists beside it, which SQLite would read as the copy's own; choose a new name", dest, side)
		}
	}
	dir, err := filepath.Abs(filepath.Dir(dest)) // absolute: SQLite would read "file:…" as a URI
	if err != nil {
		return nil, fmt.Errorf("backup %s: %w", dest, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(dest)+".part-*") // mode 0600
	if err != nil {
		return nil, fmt.Errorf("backup %s: %w", dest, err)
	}
	tmp.Close()
	clean := func() {
		for _, f := range LibraryFiles(tmp.Name()) {
			os.Remove(f)
		}
	}
	fail := func(err error) (*Rescue, error) {
		clean()
		if ctx.Err() != nil {
			err = ErrBackupInterrupted
		}
		return nil, fmt.Errorf("backup %s: %w", dest, err)
	}
	var rescue *Rescue
	switch {
	case s.db.d.postgres:
		err = s.copyToFile(ctx, tmp.Name())
	case !pagesChecked && errors.Is(s.fullCheck(ctx), ErrDamaged):
		rescue, err = s.rescueInto(ctx, tmp.Name())
	default:
		_, err = s.db.DB.ExecContext(ctx, `VACUUM INTO ?`, tmp.Name()) // accepts an empty file, keeps its mode
		// Damage the check did not see: start again, row by row.
		if isCorrupt(err) {
			clean()
			var f *os.File
			if f, err = os.OpenFile(tmp.Name(), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600); err == nil {
				f.Close()
				rescue, err = s.rescueInto(ctx, tmp.Name())
			}
		}
	}
	if err == nil {
		err = ctx.Err() // a signal after the last row: the copy is not given its name
	}
	if err != nil {
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
		return rescue, nil
	}
	os.Remove(tmp.Name())
	return rescue, nil
}

// copyToFile copies the library into a new library file at path (empty, already created).
func (s *Store) copyToFile(ctx context.Context, path string) error {
	dst, err := Open(path)
	if err != nil {
		return err
	}
	if err := s.CopyToContext(ctx, dst); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

// ErrBackupInterrupted is returned by a backup stopped by its context: nothing was kept.
var ErrBackupInterrupted = errors.New("interrupted: the partial copy was removed, nothing was written")

// backupBeforeMigration keeps the library as it was before a schema change. The name holds
// the process id, so several processes opening an old library at once each keep their own.
func (s *Store) backupBeforeMigration(version int) (string, error) {
	dest := fmt.Sprintf("%s.schema%d-%s-%d.bak", s.path, version, time.Now().UTC().Format("20060102T150405"), os.Getpid())
	_, err := s.backup(context.Background(), dest, true) // migrate checked the pages and refused a damaged library
	return dest, err
}

// CheckReport lists what `benchlens check` found; empty lists mean a healthy library.
type CheckReport struct {
	Integrity    []string `json:"integrity"`           // PRAGMA integrity_check, without its "ok"
	ForeignKeys  []string `json:"foreign_keys"`        // rows that point at nothing
	OrphanFiles  []int64  `json:"orphan_files"`        // stored files no run refers to and no running import claims
	MissingBytes []string `json:"files_missing_bytes"` // stored files whose chunks do not add up to their size
	RunsNoResult []int64  `json:"runs_without_result"`
	RunsUnread   []int64  `json:"runs_with_attachments_never_read"` // logs, traces, utilisation: none has its reading
	BadSaved     []string `json:"comparisons_with_missing_runs"`
	// Damaged libraries: the rows of each table that do not read, and the checks that could
	// not be made for the damage.
	Unreadable []TableDamage `json:"unreadable_rows,omitempty"`
	Unchecked  []string      `json:"unchecked,omitempty"`
	// Runs and Bytes are what the library holds and its size (SQLite's pages, PostgreSQL's
	// database), so a library's cost per run is seen (issue 29).
	Runs  int64 `json:"runs"`
	Bytes int64 `json:"bytes"`
}

// Footprint is the line check prints of a library's size: "100000 runs in 832.2 MB: 8.3 KB
// a run".
func (r CheckReport) Footprint() string {
	line := fmt.Sprintf("%d runs in %s", r.Runs, sizeText(r.Bytes))
	if r.Runs > 0 {
		line += ": " + sizeText(r.Bytes/r.Runs) + " a run"
	}
	return line
}

func sizeText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// footprint counts the runs and measures the library.
func (s *Store) footprint() (runs, bytes int64, err error) {
	if err := s.db.QueryRow(`SELECT count(*) FROM runs`).Scan(&runs); err != nil {
		return 0, 0, err
	}
	if s.db.d.postgres {
		err = s.db.QueryRow(`SELECT pg_database_size(current_database())`).Scan(&bytes)
		return runs, bytes, err
	}
	var pages, size int64
	if err := s.db.QueryRow(`PRAGMA page_count`).Scan(&pages); err != nil {
		return runs, 0, err
	}
	err = s.db.QueryRow(`PRAGMA page_size`).Scan(&size)
	return runs, pages * size, err
}

// OK reports whether nothing was found.
func (r CheckReport) OK() bool {
	return len(r.Integrity)+len(r.ForeignKeys)+len(r.OrphanFiles)+len(r.MissingBytes)+len(r.RunsNoResult)+len(r.RunsUnread)+len(r.BadSaved)+
		len(r.Unreadable)+len(r.Unchecked) == 0
}

// Check verifies the library: SQLite's integrity check, foreign keys, and benchlens' own
// invariants (every file belongs to a run or a running import, every file's chunks hold all
// its bytes, every run has its result file, saved comparisons point at existing runs).
//
// SQLite's integrity check reads every page, two thirds of a check's time: it runs on a
// connection of its own while the rest is checked on another, so on two cores a check takes
// about its time, not the sum (BenchmarkCheckLibrary: 100,000 runs at load 9.5, 6.3–8.2 → 4.7–4.8 s). Its
// findings come first, as when it ran first.
func (s *Store) Check() (CheckReport, error) {
	if s.db.d.postgres { // PostgreSQL keeps its pages and enforces foreign keys itself
		return s.checkRows()
	}
	pages := make(chan pageFindings, 1)
	go func() {
		integrity, err := s.queryStrings(`PRAGMA integrity_check`)
		pages <- pageFindings{integrity, err}
	}()
	rest, restErr := s.checkRows()
	p := <-pages
	var r CheckReport
	if err := r.unchecked("pages", p.err); err != nil {
		return r, err
	}
	r.Integrity = byTree(p.integrity, s.treeNames())
	if len(r.Integrity) > 0 {
		r.Unchecked = nil // the pages' own findings say it
	}
	if len(r.Integrity)+len(r.Unchecked) > 0 {
		var err error
		if r.Unreadable, err = s.Damage(); err != nil {
			return r, err
		}
	}
	rest.Integrity, rest.Unreadable, rest.Unchecked = r.Integrity, r.Unreadable, append(r.Unchecked, rest.Unchecked...)
	return rest, restErr
}

// pageFindings are what SQLite's integrity check found, or why it could not check.
type pageFindings struct {
	integrity []string
	err       error
}

// unchecked notes a check the damage stopped, so that the others go on; any other error
// is returned.
func (r *CheckReport) unchecked(what string, err error) error {
	if isCorrupt(err) {
		r.Unchecked = append(r.Unchecked, what+": "+firstLine(err.Error()))
		return nil
	}
	return err
}

// queryStrings reads a query's rows, each as its columns printed one after another.
func (s *Store) queryStrings(q string) ([]string, error) {
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

// checkRows makes Check's checks but SQLite's integrity check: the rows' links and
// benchlens' own invariants.
func (s *Store) checkRows() (CheckReport, error) {
	var r CheckReport
	strs, unchecked := s.queryStrings, r.unchecked
	ints := func(q string) ([]int64, error) { return column[int64](s.db, q) }
	if !s.db.d.postgres {
		var err error
		r.ForeignKeys, err = strs(`PRAGMA foreign_key_check`)
		if err := unchecked("rows pointing at nothing", err); err != nil {
			return r, err
		}
	}
	// A run's shared manifest is linked by id only, in SQLite (schema 10).
	lost, err := strs(`SELECT 'runs row ' || r.id || ' → manifests' FROM runs r WHERE CASE WHEN r.manifest_id IS NULL THEN r.manifest = ''
		ELSE NOT EXISTS (SELECT 1 FROM manifests m WHERE m.id = r.manifest_id) END ORDER BY r.id`)
	if err := unchecked("runs' manifests", err); err != nil {
		return r, err
	}
	r.ForeignKeys = append(r.ForeignKeys, lost...)
	live, err := s.liveOwners()
	if err := unchecked("claims of running imports", err); err != nil {
		return r, err
	}
	r.OrphanFiles, err = ints(`SELECT id FROM source_files f WHERE NOT EXISTS (SELECT 1 FROM run_files rf WHERE rf.source_id = f.id)
		AND NOT EXISTS (SELECT 1 FROM runs WHERE source_id = f.id)
		AND NOT EXISTS (SELECT 1 FROM file_claims c WHERE c.file_id = f.id AND c.owner IN (` + live + `)) ORDER BY id`)
	if err := unchecked("orphan files", err); err != nil {
		return r, err
	}
	r.MissingBytes, err = s.missingBytes()
	if err := unchecked("files' bytes", err); err != nil {
		return r, err
	}
	r.RunsNoResult, err = ints(`SELECT id FROM runs r WHERE NOT EXISTS (SELECT 1 FROM run_files rf WHERE rf.run_id = r.id AND rf.role = 'result') ORDER BY id`)
	if err := unchecked("runs' result files", err); err != nil {
		return r, err
	}
	r.RunsUnread, err = ints(`SELECT id FROM runs r WHERE EXISTS (SELECT 1 FROM run_files rf JOIN source_files f ON f.id = rf.source_id
			WHERE rf.run_id = r.id AND rf.role = 'attachment' AND f.kind IN ('log', 'utilisation', 'trace'))
		AND NOT EXISTS (SELECT 1 FROM run_files rf JOIN evidence e ON e.file_id = rf.source_id WHERE rf.run_id = r.id) ORDER BY id`)
	if err := unchecked("runs' attachments", err); err != nil {
		return r, err
	}
	list, err := s.Comparisons(false)
	if err := unchecked("saved comparisons", err); err != nil {
		return r, err
	}
	for _, c := range list {
		gone, err := s.GoneRuns(c)
		if err := unchecked(fmt.Sprintf("comparison %d's runs", c.ID), err); err != nil {
			return r, err
		}
		for _, g := range gone {
			r.BadSaved = append(r.BadSaved, fmt.Sprintf("comparison %d: run %d is gone (%s)", c.ID, g.ID, g.Why))
		}
	}
	r.Runs, r.Bytes, err = s.footprint()
	return r, unchecked("the library's size", err)
}

// treeNames maps the root page of each table and index to its name, as far as the schema
// reads.
func (s *Store) treeNames() map[string]string {
	out := map[string]string{}
	rows, err := s.db.Query(`SELECT rootpage, type, name FROM sqlite_master WHERE rootpage > 0`)
	if err != nil {
		return out
	}
	defer rows.Close()
	for rows.Next() {
		var root, kind, name string
		if rows.Scan(&root, &kind, &name) == nil {
			out[root] = kind + " " + name
		}
	}
	return out
}

// byTree words integrity check findings one per b-tree: the table or index it holds, how many
// of its pages are damaged and the first finding ("Tree 7 (table runs): 3 pages damaged,
// first page 12: …"); other findings as they are.
func byTree(findings []string, trees map[string]string) []string {
	var out []string
	count := map[string]int{}
	first := map[string]int{} // index in out
	for _, f := range findings {
		for _, line := range strings.Split(f, "\n") {
			line = strings.TrimSpace(line)
			if line == "" || line == "ok" || strings.HasPrefix(line, "***") {
				continue
			}
			rest, ok := strings.CutPrefix(line, "Tree ")
			root, detail, _ := strings.Cut(rest, " ")
			if !ok {
				out = append(out, line)
				continue
			}
			count[root]++
			if _, seen := first[root]; !seen {
				first[root] = len(out)
				out = append(out, detail)
			}
		}
	}
	for root, i := range first {
		name := "Tree " + root
		if t, ok := trees[root]; ok {
			name += " (" + t + ")"
		}
		pages := "1 page damaged"
		if n := count[root]; n > 1 {
			pages = fmt.Sprintf("%d pages damaged, first", n)
		}
		out[i] = fmt.Sprintf("%s: %s %s", name, pages, out[i])
	}
	return out
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
	add("runs whose logs, traces and utilisation were never read", ids(r.RunsUnread),
		": import their folders again to read them (a file that does not read says why)")
	add("saved comparisons with missing runs", r.BadSaved, "")
	unreadable := make([]string, len(r.Unreadable))
	for i, d := range r.Unreadable {
		unreadable[i] = d.String()
	}
	add("tables with rows that do not read", unreadable, ": `benchlens backup NEW.db` saves the rest")
	add("not checked, for the damage", r.Unchecked, "")
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

// missingBytes decodes each chunk's length and compares the sum with the file's size. A
// chunk's length is its first bytes (decodedLen), which are all that is read of it: the
// whole chunks of 100,000 runs were a tenth of a check's CPU.
func (s *Store) missingBytes() ([]string, error) {
	rows, err := s.db.Query(`SELECT f.id, f.name, f.size, coalesce(c.compression, ''), substr(c.content, 1, ?) FROM source_files f
		LEFT JOIN file_chunks c ON c.file_id = f.id ORDER BY f.id, c.seq`, binary.MaxVarintLen64)
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
		var fname, comp string
		var blob []byte
		if err := rows.Scan(&fid, &fname, &fsize, &comp, &blob); err != nil {
			return nil, err
		}
		if fid != id {
			flush()
			id, name, size, sum = fid, fname, fsize, 0
		}
		if blob != nil {
			n, err := decodedLen(comp, blob)
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
