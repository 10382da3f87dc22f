package store

import (
	"bytes"
	"database/sql"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
)

// A file is taken for a library only on proof: its SQLite header carries benchlens'
// application id (every schema since 5), or, for the schemas before it, the file holds the
// tables those schemas created. Another program's file, whatever user_version it sets, is
// refused before anything is written to it, and is read without a byte or a side file
// written: the header straight from the file, the tables through a read-only open that
// takes no locks and makes no -wal or -shm when the file has none.

// sqliteMagic opens every SQLite database file.
const sqliteMagic = "SQLite format 3\x00"

// header is what the first 100 bytes of an SQLite file say about it.
type header struct {
	wal         bool  // file format version 2: WAL mode
	version     int64 // PRAGMA user_version
	application int64 // PRAGMA application_id
}

// readHeader reads an SQLite file's header; ok is false when the file is not one.
func readHeader(path string) (header, bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return header{}, false, err
	}
	defer f.Close()
	b := make([]byte, 100)
	if _, err := io.ReadFull(f, b); err != nil {
		return header{}, false, nil // shorter than a header: not an SQLite file
	}
	if !bytes.Equal(b[:16], []byte(sqliteMagic)) {
		return header{}, false, nil
	}
	return header{
		wal:         b[18] == 2 || b[19] == 2,
		version:     int64(int32(binary.BigEndian.Uint32(b[60:]))),
		application: int64(int32(binary.BigEndian.Uint32(b[68:]))),
	}, true, nil
}

// applicationIDSince is the first schema whose libraries carry ApplicationID.
var applicationIDSince = 1 + slices.IndexFunc(migrations, func(m string) bool { return strings.Contains(m, "PRAGMA application_id") })

var tableChange = regexp.MustCompile(`(CREATE|DROP) TABLE (\w+)|ALTER TABLE (\w+) RENAME TO (\w+)`)

// schemaTables lists the tables a library of this schema version has, following the
// migrations' CREATE, DROP and RENAME of tables.
func schemaTables(version int) []string {
	var out []string
	for _, m := range migrations[:min(version, len(migrations))] {
		for _, t := range tableChange.FindAllStringSubmatch(m, -1) {
			switch {
			case t[1] == "CREATE":
				out = append(out, t[2])
			case t[1] == "DROP":
				out = slices.DeleteFunc(out, func(x string) bool { return x == t[2] })
			default:
				out[slices.Index(out, t[3])] = t[4]
			}
		}
	}
	return out
}

// identify decides from a file's application id, user_version and table names whether it is
// a benchlens library this binary may open; the error says why not.
func identify(app, version int64, tables []string) error {
	const untouched = "refusing to open it, nothing was changed"
	switch {
	case app != 0 && app != ApplicationID:
		return fmt.Errorf("an SQLite file of another program (application id %#x); %s", app, untouched)
	case version < 0 || version > int64(SchemaVersion):
		return fmt.Errorf("written by a newer benchlens (schema %d, this one knows %d); %s", version, SchemaVersion, untouched)
	case version == 0 && app == 0 && len(tables) > 0:
		return fmt.Errorf("an SQLite file of another program (%d tables, no benchlens schema); %s", len(tables), untouched)
	case version >= int64(applicationIDSince) && app != ApplicationID:
		return fmt.Errorf("an SQLite file of another program (user_version %d without the benchlens application id); %s", version, untouched)
	}
	if missing := missingTables(int(version), tables); len(missing) > 0 {
		return fmt.Errorf("an SQLite file of another program (user_version %d, but no benchlens table %s); %s", version, strings.Join(missing, ", "), untouched)
	}
	return nil
}

// missingTables lists the tables of the schema version that are not among tables.
func missingTables(version int, tables []string) []string {
	var missing []string
	for _, t := range schemaTables(version) {
		if !slices.Contains(tables, t) {
			missing = append(missing, t)
		}
	}
	return missing
}

// inspect reads an existing file's identity without writing to it (before the switch to WAL
// changes the header): another program's SQLite file, whatever it says in user_version, or a
// library of a newer benchlens is refused untouched.
func inspect(path string) error {
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
		return nil // new: created as ours
	}
	h, ok, err := readHeader(path)
	switch {
	case err != nil:
		return err
	case !ok:
		return fmt.Errorf("not an SQLite file; refusing to open it, nothing was changed")
	}
	// What the header says against us is final (an id is set once, versions only grow); what
	// it says for us may be stale while a -wal holds newer pages, so the tables are read too.
	if err := identify(h.application, h.version, nil); err != nil && (h.application != 0 && h.application != ApplicationID || h.version > int64(SchemaVersion)) {
		return err
	}
	dsn, err := fileURI(path)
	if err != nil {
		return err
	}
	dsn += "?mode=ro"
	if fi, err := os.Stat(path + "-wal"); err != nil || fi.Size() == 0 {
		dsn += "&immutable=1" // the file holds every page: read it without locks or side files
	}
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	// One read transaction: the figures from one moment, even while another process creates
	// the library.
	tx, err := db.Begin()
	if err != nil {
		return fmt.Errorf("not a benchlens library (or unreadable): %w", err)
	}
	defer tx.Rollback()
	var app, version int64
	if err := tx.QueryRow(`PRAGMA application_id`).Scan(&app); err != nil {
		return fmt.Errorf("not a benchlens library (or unreadable): %w", err)
	}
	if err := tx.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil {
		return fmt.Errorf("not a benchlens library (or unreadable): %w", err)
	}
	tables, err := column[string](tx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
	if err != nil {
		return fmt.Errorf("not a benchlens library (or unreadable): %w", err)
	}
	return identify(app, version, tables)
}

// pgOurs refuses a team library whose version table names a schema whose tables it lacks:
// another program's database that happens to hold a table of our version table's name.
func pgOurs(db queryer, version int) error {
	tables, err := column[string](db, `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`)
	if err != nil {
		return err
	}
	if missing := missingTables(version, tables); len(missing) > 0 {
		return fmt.Errorf("a database of another program (%s says schema %d, but no benchlens table %s); refusing to open it, nothing was changed",
			pgVersionTable, version, strings.Join(missing, ", "))
	}
	return nil
}
