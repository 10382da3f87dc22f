package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"benchlens/model"
)

// Comparison is a saved comparison. Record is the analysis record as JSON, kept opaque here
// so the store needs no analysis package.
type Comparison struct {
	ID            int64           `json:"id"`
	CreatedAt     string          `json:"created_at"`
	Baseline      string          `json:"baseline"`
	Candidate     string          `json:"candidate"`
	BaselineRuns  []int64         `json:"baseline_runs"`
	CandidateRuns []int64         `json:"candidate_runs"`
	Settings      json.RawMessage `json:"settings"`
	Status        model.Status    `json:"status"`
	Record        json.RawMessage `json:"record"`
}

// SaveComparison stores a comparison and returns its id.
func (s *Store) SaveComparison(c Comparison) (id int64, err error) {
	err = s.again(func() (err error) {
		id, err = s.saveComparison(c)
		return err
	})
	return id, err
}

func (s *Store) saveComparison(c Comparison) (int64, error) {
	br, _ := json.Marshal(c.BaselineRuns)
	cr, _ := json.Marshal(c.CandidateRuns)
	if c.CreatedAt == "" {
		c.CreatedAt = time.Now().UTC().Format(time.RFC3339)
	}
	if err := s.Writable(); err != nil {
		return 0, err
	}
	var id int64
	err := s.db.QueryRow(`INSERT INTO comparisons (created_at, baseline, candidate, baseline_runs, candidate_runs, settings, status, record)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, c.CreatedAt, c.Baseline, c.Candidate, string(br), string(cr), string(c.Settings), string(c.Status), string(c.Record)).Scan(&id)
	return id, err
}

// Comparisons lists saved comparisons, oldest first; with withRecord false the records are left out.
func (s *Store) Comparisons(withRecord bool) ([]Comparison, error) {
	rows, err := s.db.Query(`SELECT id FROM comparisons ORDER BY id`)
	if err != nil {
		return nil, err
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, err
		}
		ids = append(ids, id)
	}
	rows.Close()
	out := make([]Comparison, 0, len(ids))
	for _, id := range ids {
		c, err := s.Comparison(id)
		if err != nil {
			return nil, err
		}
		if !withRecord {
			c.Record = nil
		}
		out = append(out, c)
	}
	return out, nil
}

// Comparison returns one saved comparison.
func (s *Store) Comparison(id int64) (Comparison, error) {
	var c Comparison
	var br, cr, settings, record string
	err := s.db.QueryRow(`SELECT id, created_at, baseline, candidate, baseline_runs, candidate_runs, settings, status, record
		FROM comparisons WHERE id = ?`, id).Scan(&c.ID, &c.CreatedAt, &c.Baseline, &c.Candidate, &br, &cr, &settings, &c.Status, &record)
	if errors.Is(err, sql.ErrNoRows) {
		return c, fmt.Errorf("no comparison %d in the library", id)
	}
	if err != nil {
		return c, err
	}
	if err := json.Unmarshal([]byte(br), &c.BaselineRuns); err != nil {
		return c, err
	}
	if err := json.Unmarshal([]byte(cr), &c.CandidateRuns); err != nil {
		return c, err
	}
	c.Settings, c.Record = json.RawMessage(settings), json.RawMessage(record)
	return c, nil
}

// GoneRun is a run a saved comparison compared that the library no longer holds.
type GoneRun struct {
	ID  int64
	Why string // "deleted", or why the run now under its id is another
}

// reuseSlack is how much later than a comparison's saving a run it names may have been
// imported and still be the run compared: the clocks of two machines writing one team library.
const reuseSlack = time.Minute

// GoneRuns lists the runs of a saved comparison that are no longer in the library: deleted,
// or, in a library whose ids a benchlens before schema 9 handed out again, replaced under
// their id by a run imported after the comparison was saved.
func (s *Store) GoneRuns(c Comparison) ([]GoneRun, error) {
	saved, _ := time.Parse(time.RFC3339, c.CreatedAt)
	var out []GoneRun
	for _, id := range append(append([]int64(nil), c.BaselineRuns...), c.CandidateRuns...) {
		var imported string
		err := s.db.QueryRow(`SELECT imported_at FROM runs WHERE id = ?`, id).Scan(&imported)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			out = append(out, GoneRun{id, "deleted"})
		case err != nil:
			return nil, err
		default:
			if at, err := time.Parse(time.RFC3339, imported); err == nil && !saved.IsZero() && at.After(saved.Add(reuseSlack)) {
				out = append(out, GoneRun{id, fmt.Sprintf("its id now names a run imported %s, after the comparison was saved at %s", imported, c.CreatedAt)})
			}
		}
	}
	return out, nil
}
