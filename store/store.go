// Package store keeps the benchlens library: a SQLite file, or a PostgreSQL database a team
// shares, holding every imported source file (compressed, byte for byte), the runs read from
// them with their per-request samples, what attached files say (evidence), saved comparisons,
// the analyst's annotations and the analysis settings. Every SQL statement of benchlens is
// here, written once in SQLite's words (dialect adapts them); no analysis. The app and the
// command line reach it through package library.
//
// A new table is a migration appended to migrations (schema.go, which says what the
// PostgreSQL rewrite asks of it) and a name in copied (copy.go), so backup, copy and rescue
// carry it.
package store

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-sqlite3"
)

// Store is an open library.
type Store struct {
	db   conn
	path string

	claimPID  int       // marks this process's claims on files as live (see claimOwners)
	claimHost string    // where claimPID means something: this machine and pid namespace
	session   *sql.Conn // PostgreSQL: the session whose backend id is claimPID
	claimMu   sync.Mutex

	checkOnce sync.Once // the quick check before the first write
	damage    error     // what it found

	guard *fileGuard // SQLite: the file the path named when opened

	readOnly error // SQLite: why the library opened read-only, nil when it is writable

	unhashed unhashed // RekeyUnhashed's work is done
}

// DefaultPath is $BENCHLENS_DB (a file or a postgres:// URL), else library.db in the user's
// data directory.
func DefaultPath() (string, error) {
	if p := os.Getenv("BENCHLENS_DB"); p != "" {
		return p, nil
	}
	return UserPath()
}

// UserPath is library.db in the user's data directory ($XDG_DATA_HOME, else the platform's),
// where the app keeps its own files (the sample library beside it) whatever library it opens.
func UserPath() (string, error) {
	dir := os.Getenv("XDG_DATA_HOME")
	if dir == "" {
		cfg, err := os.UserConfigDir() // %AppData% on Windows, ~/Library/Application Support on macOS
		if err != nil {
			return "", err
		}
		dir = cfg
		if home, err := os.UserHomeDir(); err == nil && filepath.Dir(cfg) == home && filepath.Base(cfg) == ".config" {
			dir = filepath.Join(home, ".local", "share") // XDG data, not config, on Linux
		}
	}
	return filepath.Join(dir, "benchlens", "library.db"), nil
}

// Open opens (creating if needed) the library at path and brings its schema up to date; a
// postgres:// or postgresql:// URL opens a team library in PostgreSQL.
func Open(path string) (*Store, error) { return OpenWith(path, Options{}) }

// Options change how OpenWith treats a library it cannot simply open.
type Options struct {
	// Existing refuses to create a library: a path that holds none is an error (check on a
	// mistyped path once created the library it was asked to check).
	Existing bool
	// Stale opens a library that cannot be written here and is of an older schema, which
	// this benchlens cannot upgrade in place nor read: for backup, which copies it whole.
	Stale bool
}

// OpenWith is Open with options.
func OpenWith(path string, o Options) (*Store, error) {
	if IsPostgres(path) {
		return openPostgres(path)
	}
	if o.Existing {
		if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
			if err == nil || errors.Is(err, os.ErrNotExist) {
				err = errors.New("no library there (nothing was created; check the path)")
			}
			return nil, fmt.Errorf("library %s: %w", path, err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("library %s: %w", path, err)
	}
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err != nil && !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("library %s: %w", path, err)
		}
		if f != nil {
			f.Close()
		}
	}
	if err := inspect(path); err != nil {
		return nil, fmt.Errorf("library %s: %w", path, err)
	}
	uri, err := fileURI(path)
	if err != nil {
		return nil, fmt.Errorf("library %s: %w", path, err)
	}
	opened, err := os.Stat(path) // the file inspect read: every connection opens only it
	if err != nil {
		return nil, fmt.Errorf("library %s: %w", path, err)
	}
	guard := &fileGuard{path: path, opened: opened}
	if f, err := os.OpenFile(path, os.O_RDWR, 0); err != nil {
		// A file this user may not write (its mode, a read-only mount): read it as such.
		ro, rerr := openReadOnly(path, uri, guard, err, o.Stale)
		if rerr == nil {
			return ro, nil
		}
		if errors.Is(rerr, errStale) {
			return nil, fmt.Errorf("library %s: %w", path, rerr)
		}
	} else {
		f.Close()
	}
	db := sql.OpenDB(&guardedConnector{dsn: uri + "?_foreign_keys=on&_synchronous=NORMAL&_busy_timeout=10000&_txlock=immediate",
		guard: guard, drv: &sqlite3.SQLiteDriver{ConnectHook: registerFunctions}})
	s := &Store{db: conn{DB: db, d: sqliteDialect}, path: path, guard: guard, claimPID: os.Getpid(), claimHost: hostIdentity()}
	// Large pages suit a library of big blobs (SQLite takes the size only while the file is
	// empty, before WAL); WAL lets the app read while an import writes. Both persist in the file.
	err = setupFile(db)
	if err == nil {
		err = s.migrate()
	}
	if err != nil {
		db.Close()
		if cannotWrite(err) && opened.Size() > 0 {
			// A read-only folder, file or disk, or a full disk: the library still reads (and
			// backs up elsewhere); only writing is refused, saying why.
			ro, rerr := openReadOnly(path, uri, guard, err, o.Stale)
			if rerr == nil {
				return ro, nil
			}
			if errors.Is(rerr, errStale) {
				return nil, fmt.Errorf("library %s: %w", path, rerr)
			}
		}
		return nil, fmt.Errorf("library %s: %w", path, err)
	}
	return s, nil
}

// cannotWrite reports an error of a file that cannot be written here: read-only (its
// folder, the file, the file system), not to be created beside (-wal, -shm) or a full disk.
func cannotWrite(err error) bool {
	var se sqlite3.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code {
	case sqlite3.ErrReadonly, sqlite3.ErrCantOpen, sqlite3.ErrFull, sqlite3.ErrIoErr, sqlite3.ErrPerm:
		return true
	}
	return false
}

// openReadOnly opens a library that cannot be written here for reading: through SQLite's
// read-only mode, or, where even its shared-memory file cannot be made and no -wal holds
// pages, as an immutable file (read straight, no side file). Writes are refused with why.
func openReadOnly(path, uri string, guard *fileGuard, why error, stale bool) (*Store, error) {
	dsns := []string{uri + "?mode=ro&_busy_timeout=10000"}
	if fi, err := os.Stat(path + "-wal"); err != nil || fi.Size() == 0 {
		dsns = append(dsns, uri+"?mode=ro&immutable=1")
	}
	var err error
	for _, dsn := range dsns {
		db := sql.OpenDB(&guardedConnector{dsn: dsn, guard: guard, drv: &sqlite3.SQLiteDriver{ConnectHook: registerFunctions}})
		s := &Store{db: conn{DB: db, d: sqliteDialect}, path: path, guard: guard, claimPID: os.Getpid(), claimHost: hostIdentity()}
		var version int
		if version, err = s.schemaVersion(s.db); err == nil {
			switch {
			case version == 0:
				err = errors.New("not a benchlens library")
			case version > SchemaVersion:
				err = fmt.Errorf("written by a newer benchlens (schema %d, this one knows %d); refusing to open it", version, SchemaVersion)
			default:
				s.readOnly = fmt.Errorf("%w: it cannot be written here (%v); it reads, and `benchlens backup NEW.db` copies it to a folder that can be",
					ErrReadOnly, firstLine(why.Error()))
				if version == SchemaVersion || stale {
					return s, nil
				}
				err = fmt.Errorf("%w: it cannot be written here (%v), and at schema %d it is older than this benchlens reads without upgrading it; `benchlens backup NEW.db` copies it to a folder that can be written, where the copy is upgraded",
					errStale, firstLine(why.Error()), version)
			}
		}
		db.Close()
	}
	return nil, err
}

// errStale refuses a read-only library of an older schema to all but backup (Options.Stale).
var errStale = errors.New("the library is read-only")

// ErrReadOnly is returned by writes to a library opened read-only (see Open).
var ErrReadOnly = errors.New("the library is read-only")

// ReadOnly says why the library cannot be written, or nil.
func (s *Store) ReadOnly() error { return s.readOnly }

// uriEscaper encodes what an SQLite URI would read in a path: '%' starts an escape, '?' the
// query, '#' the fragment.
var uriEscaper = strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")

// fileURI names exactly the file at path as an SQLite URI (absolute, with an empty
// authority), so `lib?x.db`, `run#1.db` and `lab%41.db` are the files they say and not
// `lib`, `run` and `labA.db`.
func fileURI(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return "file://" + uriEscaper.Replace(filepath.ToSlash(abs)), nil
}

// Close closes the library.
func (s *Store) Close() error {
	s.claimMu.Lock()
	if s.session != nil {
		s.session.Close()
	}
	s.claimMu.Unlock()
	err := s.db.Close()
	s.guard.removeSides()
	return err
}

// Path is the library file, or the PostgreSQL URL it was opened with.
func (s *Store) Path() string { return s.path }

// Engine names the library's engine: "sqlite" or "postgres".
func (s *Store) Engine() string { return s.db.d.Engine() }

// DB exposes the connection for packages that add their own tables; its queries are in the
// engine's own words (PostgreSQL numbers its placeholders).
func (s *Store) DB() *sql.DB { return s.db.DB }

// setupFile gives a new library 64 KiB pages (SQLite takes the size only while the file is
// empty, before WAL, and before auto_vacuum), incremental auto-vacuum (pages freed can be
// given back, see reclaim) and switches it to WAL, which lets the app read while an import
// writes. All persist in the file. Two processes opening a new library at once may find it locked
// while the other switches; they wait as for any other lock.
func setupFile(db *sql.DB) error {
	var mode string
	if err := db.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err == nil && strings.EqualFold(mode, "wal") {
		return nil
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := db.Exec(`PRAGMA page_size = 65536`)
		if err == nil {
			// Pages of files removed (stored ahead, then not kept) go back to the file system.
			_, err = db.Exec(`PRAGMA auto_vacuum = INCREMENTAL`)
		}
		if err == nil {
			_, err = db.Exec(`PRAGMA journal_mode = WAL`)
		}
		if err == nil || !isBusy(err) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func isBusy(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && (se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked)
}

// SQLiteVersion returns sqlite_version() of the SQLite linked into benchlens.
func SQLiteVersion() string {
	db, err := sql.Open("sqlite3", ":memory:")
	if err != nil {
		return "unknown"
	}
	defer db.Close()
	var v string
	if err := db.QueryRow("SELECT sqlite_version()").Scan(&v); err != nil {
		return "unknown"
	}
	return v
}
