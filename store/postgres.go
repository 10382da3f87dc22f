package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib" // also registers the "pgx" database/sql driver
)

// IsPostgres reports whether a library location is a PostgreSQL URL rather than a file.
func IsPostgres(location string) bool {
	return strings.HasPrefix(location, "postgres://") || strings.HasPrefix(location, "postgresql://")
}

// Redacted is a library location fit to print: a URL's password is masked, in the user part
// or as a parameter.
func Redacted(location string) string {
	if !IsPostgres(location) {
		return location
	}
	u, err := url.Parse(location)
	if err != nil {
		return "postgres://…"
	}
	if q := u.Query(); q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}

// WithoutPassword is a library location fit to remember: a URL loses its password (in the
// user part or as a parameter); the server's client then finds it where libpq looks
// (PGPASSWORD, ~/.pgpass). A file path is returned as it is.
func WithoutPassword(location string) string {
	if !IsPostgres(location) {
		return location
	}
	u, err := url.Parse(location)
	if err != nil {
		return location
	}
	if u.User != nil {
		u.User = url.User(u.User.Username())
	}
	if q := u.Query(); q.Has("password") {
		q.Del("password")
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// openPostgres opens a team library: a PostgreSQL database holding the same tables as a
// library file, in the URL's schema search path.
func openPostgres(location string) (*Store, error) {
	fail := func(err error) error { return fmt.Errorf("library %s: %w", Redacted(location), err) }
	cfg, err := pgx.ParseConfig(location)
	if err != nil {
		return nil, fail(err)
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = 15 * time.Second // an unreachable server is an error, not a hang
	}
	db := stdlib.OpenDB(*cfg)
	s := &Store{db: conn{DB: db, d: postgresDialect}, path: location, claimHost: hostIdentity()}
	// Claims on files stored ahead name this session's backend: when the process dies, its
	// session ends and the server no longer lists it, on whichever machine it ran.
	ctx := context.Background()
	if s.session, err = db.Conn(ctx); err != nil {
		db.Close()
		return nil, fail(err)
	}
	if err := s.session.QueryRowContext(ctx, `SELECT pg_backend_pid()`).Scan(&s.claimPID); err != nil {
		s.Close()
		return nil, fail(err)
	}
	if err := s.migrate(); err != nil {
		s.Close()
		return nil, fail(err)
	}
	return s, nil
}

// pgVersionTable records a team library's schema version (SQLite keeps it in the file's
// header) and marks the database as a benchlens library.
const pgVersionTable = `benchlens_schema`

// pgForeign refuses to create a library in a database holding another program's tables.
func pgForeign(q querier) error {
	var tables int
	if err := q.QueryRow(`SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()`).Scan(&tables); err != nil {
		return err
	}
	if tables > 0 {
		return fmt.Errorf("a database of another program (%d tables, no benchlens schema); refusing to change it", tables)
	}
	return nil
}

// pgCopy streams rows into a table with COPY, in the transaction session holds (see
// conn.Begin): one round trip for all of them.
func pgCopy(session *sql.Conn, table string, columns []string, rows pgx.CopyFromSource) error {
	return session.Raw(func(dc any) error {
		pc, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("COPY needs a pgx session, not %T", dc)
		}
		_, err := pc.Conn().CopyFrom(context.Background(), pgx.Identifier{table}, columns, rows)
		return err
	})
}
