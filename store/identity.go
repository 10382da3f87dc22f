package store

import (
	"database/sql"
	"slices"

	"benchlens/model"
)

// runFromFiles returns the stored run read from run index of the result file with this
// SHA-256 and exactly these part files: the same bytes are the same run, whatever a parser
// of another benchlens version made of them. 0 when there is none.
func runFromFiles(tx *txn, resultSHA string, index int, partSHAs []string) (int64, error) {
	ids, err := column[int64](tx, `SELECT r.id FROM runs r JOIN source_files f ON f.id = r.source_id
		WHERE f.sha256 = ? AND r.source_index = ? ORDER BY r.id`, resultSHA, index)
	if err != nil {
		return 0, err
	}
	want := slices.Sorted(slices.Values(partSHAs))
	for _, id := range ids {
		parts, err := column[string](tx, `SELECT f.sha256 FROM run_files rf JOIN source_files f ON f.id = rf.source_id
			WHERE rf.run_id = ? AND rf.role = 'part' ORDER BY f.sha256`, id)
		if err != nil {
			return 0, err
		}
		if slices.Equal(parts, want) {
			return id, nil
		}
	}
	return 0, nil
}

// column returns the single column of a query's rows. In a transaction the statement is
// prepared once (column reads every row before it returns, so it is free for the next call).
func column[T any](db queryer, query string, args ...any) ([]T, error) {
	var rows *sql.Rows
	var err error
	if tx, ok := db.(*txn); ok && len(args) > 0 {
		var st *sql.Stmt
		if st, err = tx.prepared(query); err == nil {
			rows, err = st.Query(args...)
		}
	} else {
		rows, err = db.Query(query, args...)
	}
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var v T
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// adoptFingerprint gives a run found by its files the fingerprint of the current scheme, so
// the same run met later in another file (a grown JSONL, a sweep's summary) is found too. A
// fingerprint another run holds already is left alone (a writer that took it meanwhile is
// undone to the run's savepoint: PostgreSQL ends a transaction at its first failed statement).
func adoptFingerprint(tx *txn, id int64, fingerprint string) error {
	_, err := tx.Exec(`UPDATE runs SET fingerprint = ? WHERE id = ? AND fingerprint != ?
		AND NOT EXISTS (SELECT 1 FROM runs WHERE fingerprint = ?)`, fingerprint, id, fingerprint, fingerprint)
	if isUnique(err) {
		return tx.rollbackTo()
	}
	return err
}

// Rekey recomputes, with key, the fingerprint of every run whose fingerprint lacks the
// prefix of the current scheme (a library of an older benchlens), from the stored run, its
// requests and its result file's SHA-256 and index. It returns how many runs it changed; a
// run whose new fingerprint another run holds keeps its old one.
func (s *Store) Rekey(prefix string, key func(run *model.Run, resultSHA string, index int) string) (int, error) {
	type old struct {
		id    int64
		sha   string
		index int
	}
	rows, err := s.db.Query(`SELECT r.id, f.sha256, r.source_index FROM runs r JOIN source_files f ON f.id = r.source_id
		WHERE substr(r.fingerprint, 1, ?) != ? ORDER BY r.id`, len(prefix), prefix)
	if err != nil {
		return 0, err
	}
	var stale []old
	for rows.Next() {
		var o old
		if err := rows.Scan(&o.id, &o.sha, &o.index); err != nil {
			rows.Close()
			return 0, err
		}
		stale = append(stale, o)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(stale) == 0 {
		return 0, err
	}
	keys := make([]string, len(stale))
	for i, o := range stale {
		run, err := s.Run(o.id)
		if err != nil {
			return 0, err
		}
		keys[i] = key(run, o.sha, o.index)
	}
	tx, err := s.begin()
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	changed := 0
	for i, o := range stale {
		res, err := tx.Exec(`UPDATE runs SET fingerprint = ? WHERE id = ?
			AND NOT EXISTS (SELECT 1 FROM runs WHERE fingerprint = ?)`, keys[i], o.id, keys[i])
		if err != nil {
			return 0, err
		}
		n, _ := res.RowsAffected()
		changed += int(n)
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	return changed, nil
}
