package store

import (
	"bytes"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/klauspost/compress/s2"

	"benchlens/model"
)

// ChunkSize is the most raw bytes one stored chunk holds.
const ChunkSize = 4 << 20

// FileContent returns a stored file's original bytes.
func (s *Store) FileContent(id int64) ([]byte, error) {
	rows, err := s.db.Query(`SELECT compression, content FROM file_chunks WHERE file_id = ? ORDER BY seq`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []byte
	found := false
	for rows.Next() {
		found = true
		var comp string
		var blob []byte
		if err := rows.Scan(&comp, &blob); err != nil {
			return nil, err
		}
		if out, err = decodeChunk(comp, out, blob); err != nil {
			return nil, fmt.Errorf("source file %d: %w", id, err)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if !found {
		var size int64
		if err := s.db.QueryRow(`SELECT size FROM source_files WHERE id = ?`, id).Scan(&size); err != nil {
			return nil, fmt.Errorf("no source file %d", id)
		}
		if size > 0 {
			return nil, fmt.Errorf("source file %d: content missing", id)
		}
	}
	return out, nil
}

// RunFiles lists the files of a run (without their content).
func (s *Store) RunFiles(runID int64) ([]FileInfo, error) {
	rows, err := s.db.Query(`
		SELECT f.id, f.name, f.size, f.sha256, f.kind, rf.role
		FROM run_files rf JOIN source_files f ON f.id = rf.source_id
		WHERE rf.run_id = ? ORDER BY rf.role DESC, f.name`, runID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []FileInfo
	for rows.Next() {
		var fi FileInfo
		if err := rows.Scan(&fi.ID, &fi.Name, &fi.Size, &fi.SHA256, &fi.Kind, &fi.Role); err != nil {
			return nil, err
		}
		out = append(out, fi)
	}
	return out, rows.Err()
}

// FileInfo is a stored file as a run sees it.
type FileInfo struct {
	model.SourceFile
	Role model.FileRole `json:"role"`
}

// PutFile stores a file on its own, ahead of the runs that will refer to it, so a large file
// can be written while the next one is parsed, and claims it for owner (one import, from
// NewOwner) in the same transaction: no other import's clean-up removes a claimed file. A
// file already stored whose bytes are missing (an older version's crash or full disk) gets
// them back. ReleaseFiles drops the claims when the import is done.
// drop, if set, is told as each chunk is stored, so a mapped file's pages can leave memory.
func (s *Store) PutFile(f *model.SourceFile, owner string, drop func(upTo int)) (int64, error) {
	ids, errs := s.PutFiles([]Put{{File: f, Drop: drop}}, owner, nil)
	return ids[0], errs[0]
}

// Put is a file for PutFiles, with its drop (see PutFile).
type Put struct {
	File *model.SourceFile
	Drop func(upTo int)
}

// PutFiles stores and claims files as PutFile does, in one transaction, each under a
// savepoint: a commit per small file cost more than storing it. guard, if set, runs each
// file's storing (a fault on a mapped file's bytes becomes that file's error); a file that
// fails is undone alone. It returns each file's id or error; when the transaction cannot
// commit, every file not refused on its own gets that error.
func (s *Store) PutFiles(files []Put, owner string, guard func(name string, put func() error) error) (ids []int64, errs []error) {
	ids, errs = make([]int64, len(files)), make([]error, len(files))
	if guard == nil {
		guard = func(_ string, put func() error) error { return put() }
	}
	if err := s.again(func() error {
		return written(func(each bool) error { return s.putFiles(files, owner, guard, ids, errs, each) })
	}); err != nil {
		for i := range errs {
			if errs[i] == nil {
				ids[i], errs[i] = 0, err
			}
		}
	}
	return ids, errs
}

func (s *Store) putFiles(files []Put, owner string, guard func(string, func() error) error, ids []int64, errs []error, savepoints bool) error {
	clear(ids)
	clear(errs)
	tx, err := s.begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	tx.savepoints = savepoints
	now := time.Now().UTC().Format(time.RFC3339)
	for i, p := range files {
		if err := tx.savepoint(); err != nil {
			return err
		}
		err := guard(p.File.Name, func() error {
			id, err := putFileDropping(tx, p.File, nil, now, p.Drop)
			if err != nil {
				return err
			}
			ids[i] = id
			_, err = tx.Exec(`INSERT INTO file_claims (file_id, owner, pid, host, claimed_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
				id, owner, s.claimer(), s.claimHost, now)
			return err
		})
		if lostConnection(err) {
			return err
		}
		if err != nil {
			ids[i], errs[i] = 0, err
			if rerr := tx.rollbackTo(); errors.Is(rerr, errUndo) {
				return rerr
			} else if rerr != nil {
				return fmt.Errorf("the transaction ended with %s's error: %w", p.File.Name, rerr)
			}
		}
		if err := tx.keep(); err != nil {
			return err
		}
	}
	return s.commit(tx)
}

// NewOwner names one import for PutFile's claims.
func NewOwner() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// unreferenced is the condition for a stored file (alias f) that may be removed: no run
// refers to it and no import holds a claim on it.
const unreferenced = `NOT EXISTS (SELECT 1 FROM run_files rf WHERE rf.source_id = f.id)
	AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.source_id = f.id)
	AND NOT EXISTS (SELECT 1 FROM file_claims c WHERE c.file_id = f.id)`

// ReleaseFiles ends an import: its claims go, so do the claims of processes that died
// (killed mid-import), and then every file that no run refers to and nobody claims, in one
// write transaction, so a file another import is storing ahead is never taken.
// It returns how many files were removed.
func (s *Store) ReleaseFiles(owner string) (n int, err error) {
	err = s.again(func() (err error) {
		n, err = s.releaseFiles(owner)
		return err
	})
	return n, err
}

func (s *Store) releaseFiles(owner string) (int, error) {
	tx, err := s.begin()
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`DELETE FROM file_claims WHERE owner = ?`, owner); err != nil {
		return 0, err
	}
	if err := s.dropStaleClaims(tx); err != nil {
		return 0, err
	}
	res, err := tx.Exec(`DELETE FROM source_files AS f WHERE ` + unreferenced)
	if err != nil {
		return 0, err
	}
	n, _ := res.RowsAffected()
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	if n > 0 {
		s.reclaim()
	}
	return int(n), nil
}

// reclaim gives the pages of removed files back to the file system, so bytes stored ahead
// and then not kept do not grow the library for good. Libraries created since auto_vacuum
// is set do it page by page; older ones keep their free pages for the next writes.
func (s *Store) reclaim() {
	if s.db.d.postgres {
		return // the server's autovacuum reuses the space
	}
	var mode int
	if s.db.QueryRow(`PRAGMA auto_vacuum`).Scan(&mode) == nil && mode == 2 { // incremental
		s.db.Exec(`PRAGMA incremental_vacuum`)
	}
}

// dropStaleClaims removes the claims of imports that are no longer running.
func (s *Store) dropStaleClaims(tx *txn) error {
	_, stale, err := s.claimOwners(tx)
	if err != nil {
		return err
	}
	for _, owner := range stale {
		if _, err := tx.Exec(`DELETE FROM file_claims WHERE owner = ?`, owner); err != nil {
			return err
		}
	}
	return nil
}

// claimTTL is how long a claim made on another host (machine, container) counts as live:
// its process cannot be asked, and no import runs that long.
const claimTTL = 24 * time.Hour

// claimOwners sorts the imports holding claims into running and stale ones. A team library
// asks the server: a claim is live while its session is (imports run on many machines; a dead
// process's session ends with it). A library file asks this machine whether the claimer's
// process runs, when the claim was made here (or before claims said where); a claim made on
// another host, whose pids mean nothing here, counts as live for claimTTL.
func (s *Store) claimOwners(q queryer) (live, stale []string, err error) {
	alive := processAlive
	if s.db.d.postgres {
		sessions := map[int]bool{}
		rows, err := q.Query(`SELECT pid FROM pg_stat_activity`)
		if err != nil {
			return nil, nil, err
		}
		for rows.Next() {
			var pid sql.NullInt64
			if err := rows.Scan(&pid); err != nil {
				rows.Close()
				return nil, nil, err
			}
			sessions[int(pid.Int64)] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, nil, err
		}
		alive = func(pid int) bool { return sessions[pid] }
	}
	rows, err := q.Query(`SELECT owner, min(pid), min(host), min(claimed_at) FROM file_claims GROUP BY owner ORDER BY owner`)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var owner, host, at string
		var pid int
		if err := rows.Scan(&owner, &pid, &host, &at); err != nil {
			return nil, nil, err
		}
		running := alive(pid)
		if !s.db.d.postgres && host != "" && host != s.claimHost {
			t, err := time.Parse(time.RFC3339, at)
			running = err == nil && time.Since(t) < claimTTL
		}
		if running {
			live = append(live, owner)
		} else {
			stale = append(stale, owner)
		}
	}
	return live, stale, rows.Err()
}

// putFile stores a file once (by content hash) and returns its id. packed, if set, is its
// bytes as Pack compressed them.
func putFile(tx *txn, f *model.SourceFile, packed []byte, now string) (int64, error) {
	return putFileDropping(tx, f, packed, now, nil)
}

// ErrBytesMissing is returned when a run would refer to a file whose bytes are not stored
// and not at hand: the run is refused rather than stored without its evidence.
var ErrBytesMissing = errors.New("the file's bytes are not in the library (not stored ahead: disk full or a crash?); import it again")

func putFileDropping(tx *txn, f *model.SourceFile, packed []byte, now string, drop func(int)) (int64, error) {
	for attempt := 0; ; attempt++ {
		var id, size int64
		var kind string
		err := tx.QueryRow(`SELECT id, kind, size FROM source_files WHERE sha256 = ?`, f.SHA256).Scan(&id, &kind, &size)
		switch {
		case err == nil:
			return id, completeFile(tx, f, packed, id, kind, size, drop)
		case !errors.Is(err, sql.ErrNoRows):
			return 0, err
		}
		if packed == nil && int64(len(f.Data)) != f.Size {
			return 0, ErrBytesMissing
		}
		// The unique hash decides between writers storing the same file at once: the second
		// waits for the first and, finding no row inserted, takes the first one's file.
		id, err = tx.insertID(`INSERT INTO source_files (sha256, name, size, kind, imported_at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (sha256) DO NOTHING`, f.SHA256, f.Name, f.Size, f.Kind, now)
		if errors.Is(err, sql.ErrNoRows) && attempt == 0 {
			continue
		}
		if err != nil {
			return 0, err
		}
		return id, putChunks(tx, id, f.Data, packed, drop)
	}
}

// completeFile brings an already stored file up to date: a better kind, and the bytes back
// when they went missing.
func completeFile(tx *txn, f *model.SourceFile, packed []byte, id int64, kind string, size int64, drop func(int)) error {
	if f.Kind != kind && f.Kind != model.KindOther {
		// Stored ahead of parsing (PutFile), or sniffed better now.
		if _, err := tx.Exec(`UPDATE source_files SET kind = ? WHERE id = ?`, f.Kind, id); err != nil {
			return err
		}
	}
	whole, err := chunksWhole(tx, id, size)
	if err != nil || whole {
		return err
	}
	// Stored without (all of) its bytes: put them back if we have them.
	if packed == nil && int64(len(f.Data)) != size {
		return ErrBytesMissing
	}
	if _, err := tx.Exec(`DELETE FROM file_chunks WHERE file_id = ?`, id); err != nil {
		return err
	}
	return putChunks(tx, id, f.Data, packed, drop)
}

// chunksWhole reports whether a stored file has every chunk its size calls for (a quick test
// by count; `check` decodes the lengths).
func chunksWhole(tx *txn, id, size int64) (bool, error) {
	var n, maxSeq int64
	if err := tx.QueryRow(`SELECT count(*), coalesce(max(seq), -1) FROM file_chunks WHERE file_id = ?`, id).Scan(&n, &maxSeq); err != nil {
		return false, err
	}
	want := (size + ChunkSize - 1) / ChunkSize
	return n == want && maxSeq == want-1, nil
}

// Pack compresses a file of at most ChunkSize bytes into the one chunk it is stored as, so
// that the core writing a batch need not (Attached.Packed); nil for a larger or empty file.
func Pack(data []byte) []byte {
	if len(data) == 0 || len(data) > ChunkSize {
		return nil
	}
	return bytes.Clone(s2.Encode(make([]byte, s2.MaxEncodedLen(len(data))), data)) // kept until stored: no slack
}

func putChunks(tx *txn, id int64, data, packed []byte, drop func(int)) error {
	stmt, err := tx.prepared(`INSERT INTO file_chunks (file_id, seq, compression, content) VALUES (?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	if packed != nil {
		_, err := stmt.Exec(id, 0, codecS2, packed) // Pack is S2's
		return err
	}
	seq := 0
	for c := range compressed(data) {
		if _, err := stmt.Exec(id, seq, c.codec, c.block); err != nil {
			c.release()
			return err
		}
		c.release()
		if drop != nil {
			drop(c.end)
		}
		seq++
	}
	return nil
}

// compressedChunk is one chunk's block, to release once written.
type compressedChunk struct {
	codec   string
	block   []byte
	end     int // offset in the file after the chunk
	release func()
}

// compressed yields the compressed blocks of data's chunks in order (see codec.go). A file of
// several chunks has the next one compressed on another core while this one is written
// (compressing and SQLite take about as long each), in one of two buffers. A fault reading data there (a mapped file truncated
// meanwhile) panics in the caller's goroutine, as it would have without it: the caller's guard
// (importers.Guard) turns it into the file's error.
func compressed(data []byte) func(yield func(compressedChunk) bool) {
	return func(yield func(compressedChunk) bool) {
		if len(data) <= ChunkSize {
			if len(data) > 0 {
				var enc chunkEncoder
				codec, block := enc.encode(make([]byte, maxEncodedLen(len(data))), data)
				yield(compressedChunk{codec, block, len(data), func() {}})
			}
			return
		}
		type result struct {
			c     compressedChunk
			fault any
		}
		free := make(chan []byte, 2)
		for range 2 {
			free <- make([]byte, maxEncodedLen(ChunkSize))
		}
		out, stop := make(chan result), make(chan struct{})
		defer close(stop)
		go func() {
			defer close(out)
			defer func() {
				if p := recover(); p != nil {
					select {
					case out <- result{fault: p}:
					case <-stop:
					}
				}
			}()
			old := debug.SetPanicOnFault(true)
			defer debug.SetPanicOnFault(old)
			var enc chunkEncoder
			for off := 0; off < len(data); off += ChunkSize {
				var buf []byte
				select {
				case buf = <-free:
				case <-stop:
					return
				}
				end := min(off+ChunkSize, len(data))
				codec, block := enc.encode(buf, data[off:end])
				select {
				case out <- result{c: compressedChunk{codec, block, end, func() { free <- buf }}}:
				case <-stop:
					return
				}
			}
		}()
		for r := range out {
			if r.fault != nil {
				panic(r.fault)
			}
			if !yield(r.c) {
				return
			}
		}
	}
}

// Checkpoint copies the pages the write-ahead log holds into the library file, waiting for no
// reader or writer (SQLite's PASSIVE checkpoint); a team library has nothing to do. An import
// calls it once its files are stored ahead, on the core that stored them while the other
// parses: otherwise the run's commit, which passes SQLite's auto-checkpoint threshold, copies
// the source's pages too, and nothing else is left to overlap with it then. What is copied was
// committed already: a crash meanwhile loses nothing, the log still holds it.
func (s *Store) Checkpoint() error {
	if s.db.d.postgres {
		return nil
	}
	_, err := s.db.Exec(`PRAGMA wal_checkpoint(PASSIVE)`)
	return err
}
