package store

import (
	"database/sql"
	"encoding/json"
	"fmt"

	"benchlens/model"
)

// PutEvidence records what a stored file says; a file has at most one reading (the newest).
func (s *Store) PutEvidence(fileID int64, ev *model.Evidence) error {
	tx, err := s.begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := putEvidence(tx, fileID, ev, true); err != nil {
		return err
	}
	return tx.Commit()
}

// putEvidence records what a stored file says, in a transaction; replace keeps the newest
// reading, else the first stays (one import storing a shared file's reading with each run).
func putEvidence(tx *txn, fileID int64, ev *model.Evidence, replace bool) error {
	if ev == nil {
		return nil
	}
	data, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	sum, err := json.Marshal(ev.Summary())
	if err != nil {
		return err
	}
	conflict := `DO NOTHING`
	if replace {
		conflict = `DO UPDATE SET kind = excluded.kind, format = excluded.format, summary = excluded.summary, data = excluded.data`
	}
	_, err = tx.Exec(`INSERT INTO evidence (file_id, kind, format, summary, data) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (file_id) `+conflict, fileID, ev.Kind, ev.Format, string(sum), string(data))
	return err
}

// HasEvidence reports whether a file has been read for evidence.
func (s *Store) HasEvidence(fileID int64) (bool, error) {
	var n int
	err := s.db.QueryRow(`SELECT count(*) FROM evidence WHERE file_id = ?`, fileID).Scan(&n)
	return n > 0, err
}

// RunEvidence returns the evidence of every file attached to a run, in file order, each with
// the name of its file.
func (s *Store) RunEvidence(runID int64) ([]model.Evidence, error) {
	rows, err := s.db.Query(`SELECT e.file_id, f.name, e.data FROM evidence e JOIN run_files rf ON rf.source_id = e.file_id
		JOIN source_files f ON f.id = e.file_id WHERE rf.run_id = ? ORDER BY e.file_id`, runID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []model.Evidence
	for rows.Next() {
		var id int64
		var name, data string
		if err := rows.Scan(&id, &name, &data); err != nil {
			return nil, err
		}
		var ev model.Evidence
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			return nil, fmt.Errorf("file %d: damaged evidence: %w", id, err)
		}
		ev.File = name
		out = append(out, ev)
	}
	return out, rows.Err()
}

// EvidenceSummaries returns, per run, the short evidence of its files (backends, shapes).
func (s *Store) EvidenceSummaries() (map[int64][]model.EvidenceSummary, error) {
	return s.evidenceSummaries(0, ``)
}

// evidenceSummaries returns the summaries of the runs a WHERE clause on rf.run_id picks, with
// room for files of them made at first (a listing's batch: one a run). A summary's text
// repeats over a lab's runs (one server's log says the same backends every night): each
// distinct text is decoded once, and the runs' summaries share one slice, not one each (the
// app's sidebar reads a summary for every run of the library).
func (s *Store) evidenceSummaries(files int, where string, args ...any) (map[int64][]model.EvidenceSummary, error) {
	rows, err := s.db.Query(`SELECT rf.run_id, f.name, e.summary FROM evidence e JOIN run_files rf ON rf.source_id = e.file_id
		JOIN source_files f ON f.id = e.file_id `+where+` ORDER BY rf.run_id, e.file_id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	ids, sums := make([]int64, 0, files), make([]model.EvidenceSummary, 0, files)
	decoded := map[string]model.EvidenceSummary{}
	for rows.Next() {
		var id int64
		var name string
		var data sql.RawBytes
		if err := rows.Scan(&id, &name, &data); err != nil {
			return nil, err
		}
		sum, ok := decoded[string(data)]
		if !ok {
			if sum, err = decodeEvidenceSummary(data); err != nil {
				return nil, fmt.Errorf("run %d: damaged evidence summary: %w", id, err)
			}
			if len(decoded) < 1024 {
				decoded[string(data)] = sum
			}
		}
		sum.File = name
		ids, sums = append(ids, id), append(sums, sum)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make(map[int64][]model.EvidenceSummary, files)
	for from := 0; from < len(ids); {
		to := from + 1
		for to < len(ids) && ids[to] == ids[from] {
			to++
		}
		out[ids[from]] = sums[from:to:to] // a run's own: appending to it leaves the next run's
		from = to
	}
	return out, nil
}

// decodeEvidenceSummary decodes a stored summary field by field (eachField): a listing
// reads one for every file of every run.
func decodeEvidenceSummary(b []byte) (model.EvidenceSummary, error) {
	var s model.EvidenceSummary
	err := eachField(b, func(key, v []byte) error {
		switch string(key) {
		case "kind":
			return jsonText(v, &s.Kind)
		case "target_backend":
			return jsonText(v, &s.TargetBackend)
		case "target_source":
			return jsonText(v, &s.TargetSource)
		case "target_line":
			return jsonInt(v, &s.TargetLine)
		case "resolved_backend":
			return jsonText(v, &s.ResolvedBackend)
		case "backend_status":
			return jsonText(v, &s.BackendStatus)
		case "shape":
			return jsonText(v, &s.Shape)
		}
		return nil
	})
	return s, err
}
