// Package sqlitero opens an SQLite file of a bundle for reading only. SQLite reads files, not
// memory, so the bytes are written to a private temporary file, opened read-only and
// immutable (no lock, no journal, no write), and removed when the reader is done: neither the
// copy nor the user's file is ever modified. The results' per-request databases (EvalScope's
// benchmark_data.db, AISBench's numpy store) are read through it.
package sqlitero

import (
	"bytes"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	_ "github.com/mattn/go-sqlite3" // the driver the library already ships

	"benchlens/importers/format"
)

// Magic starts every SQLite database file.
var Magic = []byte("SQLite format 3\x00")

// Is reports whether data is an SQLite database file.
func Is(data []byte) bool { return bytes.HasPrefix(data, Magic) }

// Schema is the head of the file, where SQLite keeps sqlite_master's CREATE statements: what
// a sniffer may look for a table's columns in (64 KiB at most).
func Schema(data []byte) []byte { return data[:min(len(data), 64<<10)] }

// Open copies f to a temporary file and opens it read-only; close closes the database and
// removes the copy.
func Open(f *format.File) (db *sql.DB, closeFn func(), err error) {
	path, remove, err := Copy(f)
	if err != nil {
		return nil, nil, err
	}
	db, err = OpenPath(path, 1)
	if err != nil {
		remove()
		return nil, nil, err
	}
	return db, func() { db.Close(); remove() }, nil
}

// Copy writes f to a private temporary file, letting a mapped file's pages go behind it
// (f.Drop); remove deletes the copy.
func Copy(f *format.File) (path string, remove func(), err error) {
	tmp, err := os.CreateTemp("", "benchlens-sqlite-*.db")
	if err != nil {
		return "", nil, err
	}
	remove = func() { os.Remove(tmp.Name()) }
	const chunk = 16 << 20
	for off := 0; off < len(f.Data); off += chunk {
		end := min(off+chunk, len(f.Data))
		if _, err := tmp.Write(f.Data[off:end]); err != nil {
			tmp.Close()
			remove()
			return "", nil, fmt.Errorf("copying the database to a temporary file: %w", err)
		}
		if f.Drop != nil {
			f.Drop(end)
		}
	}
	if err := tmp.Close(); err != nil {
		remove()
		return "", nil, err
	}
	return tmp.Name(), remove, nil
}

// OpenPath opens an SQLite file on disk read-only and immutable (no lock, no journal, no
// write), with at most conns connections (one per query streamed at once).
func OpenPath(path string, conns int) (*sql.DB, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite3", "file://"+uriEscaper.Replace(filepath.ToSlash(abs))+"?mode=ro&immutable=1")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(conns)
	return db, nil
}

// uriEscaper encodes what an SQLite URI would read in a path.
var uriEscaper = strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")

// Columns lists a table's columns; none when the table is absent.
func Columns(db *sql.DB, table string) (map[string]bool, error) {
	rows, err := db.Query(`SELECT name FROM pragma_table_info(?)`, table)
	if err != nil {
		return nil, fmt.Errorf("not a readable SQLite file: %w", err)
	}
	defer rows.Close()
	cols := map[string]bool{}
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, err
		}
		cols[c] = true
	}
	return cols, rows.Err()
}
