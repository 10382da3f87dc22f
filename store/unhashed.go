package store

import (
	"sync"

	"benchlens/model"
)

// A run that measured nothing (no requests, no summary: every request failed) is identified
// by its result file's SHA-256 and its index there. An import before this version keyed such
// a run before it had hashed the file, so by an empty hash: a second file of the same tool,
// model, date and counts was taken for the first and never stored. Those runs keep the
// scheme's prefix, so Rekey does not see them; RekeyUnhashed finds them.

// unhashed remembers, per open library, that RekeyUnhashed has found nothing more to do: a
// run stored since is keyed by its file's hash, and one an older benchlens stores meanwhile
// is still found by its files on re-import (runFromFiles).
type unhashed struct {
	mu   sync.Mutex
	done bool
}

// RekeyUnhashed gives each run that measured nothing and whose fingerprint is key(run, "",
// index), the key taken without its file's hash, the fingerprint key(run, sha, index) of
// its result file's real SHA-256, and returns how many it changed. Only those runs are read
// (no requests and an empty summary, '{}', or 'null' as an older benchlens may have written
// it: a query, not a read of every run), and only those whose stored fingerprint is that
// empty-hash key are written, in one transaction: a failure leaves every fingerprint as it
// was. A run whose right fingerprint another run holds keeps its own, as in Rekey. Once it
// succeeds it does nothing more for this Store.
func (s *Store) RekeyUnhashed(key func(run *model.Run, resultSHA string, index int) string) (int, error) {
	s.unhashed.mu.Lock()
	defer s.unhashed.mu.Unlock()
	if s.unhashed.done {
		return 0, nil
	}
	type candidate struct {
		id                      int64
		sha, fingerprint, right string
		index                   int
	}
	rows, err := s.db.Query(`SELECT r.id, f.sha256, r.source_index, r.fingerprint FROM runs r JOIN source_files f ON f.id = r.source_id
		WHERE r.summary IN ('{}', 'null', '') AND NOT EXISTS (SELECT 1 FROM requests q WHERE q.run_id = r.id) ORDER BY r.id`)
	if err != nil {
		return 0, err
	}
	var all []candidate
	for rows.Next() {
		var c candidate
		if err := rows.Scan(&c.id, &c.sha, &c.index, &c.fingerprint); err != nil {
			rows.Close()
			return 0, err
		}
		all = append(all, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	var wrong []candidate
	for _, c := range all {
		run, err := s.Run(c.id)
		if err != nil {
			return 0, err
		}
		if c.fingerprint == key(run, "", c.index) {
			if c.right = key(run, c.sha, c.index); c.right != c.fingerprint {
				wrong = append(wrong, c)
			}
		}
	}
	changed := 0
	if len(wrong) > 0 {
		if err := s.Writable(); err != nil {
			return 0, err
		}
		tx, err := s.begin()
		if err != nil {
			return 0, err
		}
		defer tx.Rollback() // no-op after Commit
		for _, c := range wrong {
			// Only a run still holding the empty-hash key (another process may have re-keyed
			// it meanwhile), and never onto a fingerprint another run holds.
			res, err := tx.Exec(`UPDATE runs SET fingerprint = ? WHERE id = ? AND fingerprint = ?
				AND NOT EXISTS (SELECT 1 FROM runs WHERE fingerprint = ?)`, c.right, c.id, c.fingerprint, c.right)
			if err != nil {
				return 0, err
			}
			n, _ := res.RowsAffected()
			changed += int(n)
		}
		if err := s.commit(tx); err != nil {
			return 0, err
		}
	}
	s.unhashed.done = true
	return changed, nil
}
