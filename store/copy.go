package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// copiedTable is one table backup copies.
type copiedTable struct {
	table    string
	identity bool // PostgreSQL hands out its ids: the sequence continues after the copy
}

// copied lists the library's tables in an order that satisfies their foreign keys, and the
// ones keyed by an identity PostgreSQL must continue after the copied ids. In-flight claims
// are not copied: they belong to imports running on the source.
var copied = []copiedTable{
	{"source_files", true}, {"file_chunks", false}, {"runs", true}, {"run_files", false},
	{"requests", false}, {"evidence", false}, {"comparisons", true}, {"annotations", true},
	{"settings", false},
}

// CopyTo copies the whole library into dst, an empty library of either engine, keeping every
// id, in one transaction on dst: all of it or nothing. The source is read in one snapshot.
// Both libraries must be at the same schema (one benchlens opened both).
func (s *Store) CopyTo(dst *Store) error {
	var n int
	if err := dst.db.QueryRow(`SELECT (SELECT count(*) FROM source_files) + (SELECT count(*) FROM comparisons) + (SELECT count(*) FROM settings)`).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return fmt.Errorf("%s is not empty; copy into a new library", Redacted(dst.path))
	}
	ctx := context.Background()
	opts := &sql.TxOptions{ReadOnly: true}
	if s.db.d.postgres {
		opts.Isolation = sql.LevelRepeatableRead // one snapshot while imports go on
	}
	src, err := s.db.DB.BeginTx(ctx, opts)
	if err != nil {
		return err
	}
	defer src.Rollback()
	tx, err := dst.begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, t := range copied {
		if err := copyTable(src, tx, t.table); err != nil {
			return fmt.Errorf("copying %s: %w", t.table, err)
		}
		if t.identity && dst.db.d.postgres {
			if _, err := tx.Exec(`SELECT setval(pg_get_serial_sequence(?, 'id'), coalesce(max(id), 0) + 1, false) FROM `+t.table, t.table); err != nil {
				return err
			}
		}
	}
	return tx.Commit()
}

// copyTable streams one table's rows, column by column as they are named.
func copyTable(src *sql.Tx, dst *txn, table string) error {
	rows, err := src.Query(`SELECT * FROM ` + table)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	if dst.session != nil {
		return pgCopy(dst.session, table, cols, &rowSource{rows: rows, n: len(cols)})
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
	rows *sql.Rows
	n    int
	vals []any
	err  error
}

func (r *rowSource) Next() bool {
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
