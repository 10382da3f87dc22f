package store

import (
	"database/sql"
	"errors"
	"fmt"
	"sync"

	"github.com/klauspost/compress/zstd"

	"benchlens/model"
)

// zstd at its fastest level compresses a 100 MB result in a fraction of a second and still
// shrinks JSON several times; the original bytes come back exactly.
var (
	encoderOnce sync.Once
	encoder     *zstd.Encoder
	decoder     *zstd.Decoder
)

func codecs() {
	encoderOnce.Do(func() {
		encoder, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(2))
		decoder, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	})
}

// Compress encodes a source file's bytes as the library stores them. Callers may compress
// ahead of time (in parallel with parsing) and hand the result to AddRun.
func Compress(data []byte) []byte {
	codecs()
	return encoder.EncodeAll(data, make([]byte, 0, len(data)/4))
}

// HasFile reports whether a file with this content is already in the library.
func (s *Store) HasFile(sha256 string) (bool, error) {
	var n int
	err := s.db.QueryRow(`SELECT count(*) FROM source_files WHERE sha256 = ?`, sha256).Scan(&n)
	return n > 0, err
}

// FileContent returns a stored file's original bytes.
func (s *Store) FileContent(id int64) ([]byte, error) {
	var comp string
	var blob []byte
	err := s.db.QueryRow(`SELECT compression, content FROM source_files WHERE id = ?`, id).Scan(&comp, &blob)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("no source file %d", id)
	}
	if err != nil {
		return nil, err
	}
	if comp != "zstd" {
		return nil, fmt.Errorf("source file %d: unknown compression %q", id, comp)
	}
	codecs()
	return decoder.DecodeAll(blob, nil)
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

// putFile stores a file once (by content hash) and returns its id.
func putFile(tx *sql.Tx, f *model.SourceFile, compressed []byte, now string) (int64, error) {
	var id int64
	err := tx.QueryRow(`SELECT id FROM source_files WHERE sha256 = ?`, f.SHA256).Scan(&id)
	if err == nil {
		return id, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return 0, err
	}
	if compressed == nil {
		compressed = Compress(f.Data)
	}
	res, err := tx.Exec(`INSERT INTO source_files (sha256, name, size, kind, compression, content, imported_at)
		VALUES (?, ?, ?, ?, 'zstd', ?, ?)`, f.SHA256, f.Name, f.Size, f.Kind, compressed, now)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}
