package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// copied lists the library's tables in an order that satisfies their foreign keys. In-flight
// claims are not copied: they belong to imports running on the source. The id counters
// (sqlite_sequence, PostgreSQL's sequences) are carried as the high-water marks of
// identityTables.
var copied = []string{"source_files", "file_chunks", "manifests", "runs", "run_files", "requests", "evidence", "comparisons", "annotations", "settings"}

// CopyTo copies the whole library into dst, an empty library of either engine, keeping every
// id, in one transaction on dst: all of it or nothing. The source is read in one snapshot.
// Both libraries must be at the same schema (one benchlens opened both).
func (s *Store) CopyTo(dst *Store) error {
	return s.CopyToContext(context.Background(), dst)
}

// CopyToContext is CopyTo, stopped (and rolled back) when ctx is done.
func (s *Store) CopyToContext(ctx context.Context, dst *Store) error {
	var n int
	if err := dst.db.QueryRow(`SELECT (SELECT count(*) FROM source_files) + (SELECT count(*) FROM comparisons) + (SELECT count(*) FROM settings)`).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return fmt.Errorf("%s is not empty; copy into a new library", Redacted(dst.path))
	}
	src, done, err := s.snapshot()
	if err != nil {
		return err
	}
	defer done()
	tx, err := dst.begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, t := range copied {
		if err := copyTable(ctx, src, tx, t); err != nil {
			return fmt.Errorf("copying %s: %w", t, err)
		}
	}
	// Ids the source handed out and deleted stay used in the copy.
	for _, t := range identityTables {
		hw, err := highWater(src, s.db.d, t)
		if err != nil {
			return fmt.Errorf("reading the ids of %s: %w", t, err)
		}
		if err := setHighWater(tx, t, hw); err != nil {
			return fmt.Errorf("carrying the ids of %s: %w", t, err)
		}
	}
	return tx.Commit()
}

// reader is a read transaction: what a copy reads from.
type reader interface {
	Query(q string, args ...any) (*sql.Rows, error)
	QueryRow(q string, args ...any) *sql.Row
}

// snapshot opens a read transaction on the library, one snapshot that imports and autosaves
// go on beside: on SQLite a deferred transaction holds no write lock (a read-only BeginTx
// there is BEGIN IMMEDIATE, the library's transaction mode, and blocked every writer for
// the whole copy); on PostgreSQL a repeatable-read one.
func (s *Store) snapshot() (reader, func(), error) {
	ctx := context.Background()
	if s.db.d.postgres {
		tx, err := s.db.DB.BeginTx(ctx, &sql.TxOptions{ReadOnly: true, Isolation: sql.LevelRepeatableRead})
		if err != nil {
			return nil, nil, err
		}
		return tx, func() { tx.Rollback() }, nil
	}
	session, err := s.db.DB.Conn(ctx)
	if err != nil {
		return nil, nil, err
	}
	r := sessionReader{session}
	var n int
	_, err = session.ExecContext(ctx, `BEGIN DEFERRED`)
	if err == nil {
		err = r.QueryRow(`SELECT count(*) FROM sqlite_master`).Scan(&n) // the snapshot starts at the first read
	}
	if err != nil {
		session.ExecContext(ctx, `ROLLBACK`)
		session.Close()
		return nil, nil, err
	}
	return r, func() {
		session.ExecContext(ctx, `ROLLBACK`)
		session.Close()
	}, nil
}

// sessionReader reads on one session, inside the transaction begun on it.
type sessionReader struct{ c *sql.Conn }

func (r sessionReader) Query(q string, args ...any) (*sql.Rows, error) {
	return r.c.QueryContext(context.Background(), q, args...)
}

func (r sessionReader) QueryRow(q string, args ...any) *sql.Row {
	return r.c.QueryRowContext(context.Background(), q, args...)
}

// copyTable streams one table's rows, column by column as they are named.
func copyTable(ctx context.Context, src reader, dst *txn, table string) error {
	rows, err := src.Query(`SELECT * FROM ` + table)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	if dst.d.postgres {
		return pgCopy(dst.session, table, cols, &rowSource{ctx: ctx, rows: rows, n: len(cols)})
	}
	stmt, err := dst.Prepare(`INSERT INTO ` + table + ` (` + strings.Join(cols, ", ") + `) VALUES (` +
		strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + `)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for rows.Next() {
		vals, err := scanAny(rows, len(cols))
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if _, err := stmt.Exec(vals...); err != nil {
			return err
		}
	}
	return rows.Err()
}

// scanAny reads a row of n columns of any types.
func scanAny(rows *sql.Rows, n int) ([]any, error) {
	vals := make([]any, n)
	ptrs := make([]any, n)
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	return vals, rows.Scan(ptrs...)
}

// rowSource feeds the rows of a query to PostgreSQL's COPY.
type rowSource struct {
	ctx  context.Context
	rows *sql.Rows
	n    int
	vals []any
	err  error
}

func (r *rowSource) Next() bool {
	if r.err == nil {
		r.err = r.ctx.Err()
	}
	if r.err != nil || !r.rows.Next() {
		return false
	}
	r.vals, r.err = scanAny(r.rows, r.n)
	return r.err == nil
}

func (r *rowSource) Values() ([]any, error) { return r.vals, r.err }

func (r *rowSource) Err() error {
	if r.err != nil {
		return r.err
	}
	return r.rows.Err()
}
