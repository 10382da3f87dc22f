package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mattn/go-sqlite3"
)

// quickCheckBudget bounds the check before the first write: a library too large to check in
// this time is written to unchecked (`benchlens check` reads all of it).
const quickCheckBudget = 3 * time.Second

// ErrDamaged wraps the refusal to write to a library whose pages are damaged.
var ErrDamaged = errors.New("the library file is damaged")

// Writable refuses writes to a damaged library, so damage is not spread by new pages. It
// runs SQLite's quick check once per open library, before the first write; an import asks
// first so that it says so once.
// A team library's pages are the server's to keep.
func (s *Store) Writable() error {
	if s.db.d.postgres {
		return nil
	}
	if s.readOnly != nil {
		return s.readOnly
	}
	if err := s.present(); err != nil {
		return err
	}
	s.checkOnce.Do(func() { s.damage = s.quickCheck() })
	return s.damage
}

// quickCheck runs PRAGMA quick_check within quickCheckBudget; a check cut short by the budget
// finds nothing.
func (s *Store) quickCheck() error {
	ctx, cancel := context.WithTimeout(context.Background(), quickCheckBudget)
	defer cancel()
	return s.pageCheck(ctx)
}

// pageCheck runs PRAGMA quick_check until ctx ends, and words what it finds as the refusal.
func (s *Store) pageCheck(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, `PRAGMA quick_check(5)`)
	if err != nil {
		return s.damaged(err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var m string
		if err := rows.Scan(&m); err != nil {
			return s.damaged(err)
		}
		if m != "ok" {
			problems = append(problems, m)
		}
	}
	if err := rows.Err(); err != nil {
		return s.damaged(err)
	}
	if len(problems) > 0 {
		return s.damagedBecause(strings.Join(problems, "\n"))
	}
	return nil
}

// damaged turns an error met while checking into the refusal when it says the file is
// corrupt; a timeout or interruption is no finding.
func (s *Store) damaged(err error) error {
	if isCorrupt(err) {
		return s.damagedBecause(err.Error())
	}
	return nil
}

// damagedBecause words the refusal on one line, with the first finding.
func (s *Store) damagedBecause(why string) error {
	lines := strings.FieldsFunc(why, func(r rune) bool { return r == '\n' || r == '\r' })
	why = ""
	for _, l := range lines {
		if !strings.HasPrefix(l, "***") { // "*** in database main ***"
			why = strings.TrimSpace(l)
			break
		}
	}
	if len(lines) > 2 {
		why += " and more"
	}
	return fmt.Errorf("%w (%s): writes refused. Copy %s (with any -wal file) aside before anything else, "+
		"then `benchlens --db %s backup COPY` to save what reads, or `sqlite3 %s .recover | sqlite3 NEW.db`; "+
		"`benchlens check` lists the damage", ErrDamaged, why, s.path, s.path, s.path)
}

func isCorrupt(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && (se.Code == sqlite3.ErrCorrupt || se.Code == sqlite3.ErrNotADB)
}

// begin starts a write transaction on a library that passed the quick check.
func (s *Store) begin() (*txn, error) {
	if err := s.Writable(); err != nil {
		return nil, err
	}
	return s.db.Begin()
}

// commit ends a write transaction, unless the library's file was replaced meanwhile: what it
// wrote would be lost with the file the name no longer holds. The transaction is rolled back
// first then, so that saving what the file holds (present) has a connection to read it with.
func (s *Store) commit(tx *txn) error {
	if s.guard != nil && s.guard.check() != nil {
		tx.Rollback()
		return s.present()
	}
	return tx.Commit()
}

// exec runs one write statement on a library that passed the quick check.
func (s *Store) exec(query string, args ...any) (sql.Result, error) {
	if err := s.Writable(); err != nil {
		return nil, err
	}
	return s.db.Exec(query, args...)
}
