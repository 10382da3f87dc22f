package store

import (
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/klauspost/compress/s2"

	"benchlens/model"
)

// Source files are stored with S2 (klauspost/compress), which compresses a 100 MB result at
// several hundred MB/s on one core, so keeping the original bytes costs less than parsing
// them; the bytes come back exactly.
const codec = "s2"

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
		if comp != codec {
			return nil, fmt.Errorf("source file %d: unknown compression %q", id, comp)
		}
		n, err := s2.DecodedLen(blob)
		if err != nil {
			return nil, fmt.Errorf("source file %d: damaged chunk: %w", id, err)
		}
		out = slices.Grow(out, n)
		dec, err := s2.Decode(out[len(out):len(out)+n], blob)
		if err != nil {
			return nil, fmt.Errorf("source file %d: damaged chunk: %w", id, err)
		}
		out = out[:len(out)+len(dec)]
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
	Role string `json:"role"` // result, part, attachment
}

// PutFile stores a file on its own, ahead of the runs that will refer to it, so a large file
// can be written while the next one is parsed. Files no run refers to in the end are removed
// with RemoveOrphans.
// drop, if set, is told as each chunk is stored, so a mapped file's pages can leave memory.
func (s *Store) PutFile(f *model.SourceFile, drop func(upTo int)) (int64, error) {
	tx, err := s.db.Begin()
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	id, err := putFileDropping(tx, f, time.Now().UTC().Format(time.RFC3339), drop)
	if err != nil {
		return 0, err
	}
	return id, tx.Commit()
}

// RemoveOrphans deletes those of the given files that no run refers to.
func (s *Store) RemoveOrphans(ids []int64) error {
	for _, id := range ids {
		if _, err := s.db.Exec(`DELETE FROM source_files WHERE id = ?
			AND NOT EXISTS (SELECT 1 FROM run_files WHERE source_id = ?)
			AND NOT EXISTS (SELECT 1 FROM runs WHERE source_id = ?)`, id, id, id); err != nil {
			return err
		}
	}
	return nil
}

// putFile stores a file once (by content hash) and returns its id.
func putFile(tx *sql.Tx, f *model.SourceFile, now string) (int64, error) {
	return putFileDropping(tx, f, now, nil)
}

func putFileDropping(tx *sql.Tx, f *model.SourceFile, now string, drop func(int)) (int64, error) {
	var id int64
	var kind string
	err := tx.QueryRow(`SELECT id, kind FROM source_files WHERE sha256 = ?`, f.SHA256).Scan(&id, &kind)
	if err == nil {
		if f.Kind != kind && f.Kind != model.KindOther {
			// Stored ahead of parsing (PutFile), or sniffed better now.
			_, err = tx.Exec(`UPDATE source_files SET kind = ? WHERE id = ?`, f.Kind, id)
		}
		return id, err
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return 0, err
	}
	res, err := tx.Exec(`INSERT INTO source_files (sha256, name, size, kind, imported_at) VALUES (?, ?, ?, ?, ?)`,
		f.SHA256, f.Name, f.Size, f.Kind, now)
	if err != nil {
		return 0, err
	}
	if id, err = res.LastInsertId(); err != nil {
		return 0, err
	}
	stmt, err := tx.Prepare(`INSERT INTO file_chunks (file_id, seq, compression, content) VALUES (?, ?, ?, ?)`)
	if err != nil {
		return 0, err
	}
	defer stmt.Close()
	buf := make([]byte, s2.MaxEncodedLen(min(len(f.Data), ChunkSize)))
	for seq, off := 0, 0; off < len(f.Data); seq, off = seq+1, off+ChunkSize {
		end := min(off+ChunkSize, len(f.Data))
		chunk := s2.Encode(buf, f.Data[off:end])
		if _, err := stmt.Exec(id, seq, codec, chunk); err != nil {
			return 0, err
		}
		if drop != nil {
			drop(end)
		}
	}
	return id, nil
}
