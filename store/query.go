package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"benchlens/internal/par"
	"benchlens/model"
)

// runColumnsSQL reads a run from runs r.
const runColumnsSQL = `r.id, r.bundle, r.label, r.role, r.header, r.summary, r.recomputed, r.extra, r.measured, r.point, ` + manifestSQL

// Runs lists every run in the library (without per-request samples), oldest import first.
func (s *Store) Runs() ([]*model.Run, error) {
	return s.readRuns(`SELECT ` + runColumnsSQL + ` FROM runs r ORDER BY r.id`)
}

// readRuns reads and decodes the runs a query of runColumnsSQL selects.
func (s *Store) readRuns(query string, args ...any) ([]*model.Run, error) {
	rows, err := s.db.Query(query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var cols []runCols
	for rows.Next() {
		var c runCols
		if err := c.scan(rows); err != nil {
			return nil, err
		}
		cols = append(cols, c)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return decodeRuns(cols)
}

// decodeRuns decodes runs as read. Decoding the runs' JSON is most of a listing's time: it
// runs on all cores, in chunks, and the first damaged run in id order is the one reported,
// as one by one.
func decodeRuns(cols []runCols) ([]*model.Run, error) {
	out := make([]*model.Run, len(cols))
	errs := make([]error, len(cols))
	manifests := make([]map[string]model.Manifest, par.Workers(len(cols), 256)) // one cache a worker, no lock
	par.Each(len(cols), 256, func(w, i int) {
		if manifests[w] == nil {
			manifests[w] = map[string]model.Manifest{}
		}
		out[i], errs[i] = cols[i].decode(manifests[w])
		cols[i] = runCols{} // the text is not needed again
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Run returns one run with its per-request samples.
func (s *Store) Run(id int64) (*model.Run, error) {
	r, err := scanRun(s.db.QueryRow(`SELECT `+runColumnsSQL+` FROM runs r WHERE r.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("no run %d in the library", id)
	}
	if err != nil {
		return nil, err
	}
	if r.Requests, err = s.Requests(id); err != nil {
		return nil, err
	}
	return r, nil
}

type scanner interface{ Scan(...any) error }

func scanRun(row scanner) (*model.Run, error) {
	var c runCols
	if err := c.scan(row); err != nil {
		return nil, err
	}
	return c.decode(nil)
}

// runCols are a run's columns as read, its JSON not yet decoded.
type runCols struct {
	id                                                                int64
	bundle, label, role, header, summary, recomputed, extra, manifest string
	measured                                                          []byte // packMeasured's, or nil
	point                                                             []byte // the point column, nil for none
}

func (c *runCols) scan(row scanner) error {
	return row.Scan(&c.id, &c.bundle, &c.label, &c.role, &c.header, &c.summary, &c.recomputed, &c.extra, &c.measured, &c.point, &c.manifest)
}

// decode decodes a run's JSON columns. Runs read together share a manifest (the manifests
// table holds it once): manifests, when not nil, keeps each text decoded once, the runs naming
// one map that nothing changes.
func (c *runCols) decode(manifests map[string]model.Manifest) (*model.Run, error) {
	r := model.NewRun("")
	m, shared := manifests[c.manifest]
	cols := []struct {
		text string
		dst  any
	}{{c.header, r}, {c.summary, &r.Summary}, {c.recomputed, &r.Recomputed}, {c.extra, &r.Extra}, {c.manifest, &r.Manifest}}
	if shared {
		cols = cols[:4]
	}
	for _, col := range cols {
		if err := json.Unmarshal([]byte(col.text), col.dst); err != nil {
			return nil, fmt.Errorf("run %d: damaged record: %w", c.id, err)
		}
	}
	switch {
	case shared:
		r.Manifest = m
	case manifests != nil:
		manifests[c.manifest] = r.Manifest
	}
	r.ID, r.Bundle, r.Label, r.Role = c.id, c.bundle, c.label, model.Role(c.role)
	r.Measured = unpackMeasured(c.measured)
	point, err := decodePoint(c.point)
	if err != nil {
		return nil, fmt.Errorf("run %d: damaged load point: %w", c.id, err)
	}
	r.Point = point
	return r, nil
}

// Requests returns a run's per-request samples in their original order.
func (s *Store) Requests(runID int64) ([]model.Request, error) {
	rows, err := s.db.Query(`SELECT input_len, output_len, ttft, tpot, latency, start, error, itl
		FROM requests WHERE run_id = ? ORDER BY idx`, runID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []model.Request
	for rows.Next() {
		r, err := scanRequest(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// scanRequest reads a request from its columns (input_len, output_len, ttft, tpot, latency,
// start, error, itl), after the lead columns given.
func scanRequest(rows *sql.Rows, lead ...any) (model.Request, error) {
	var in, outLen sql.NullInt64
	var ttft, tpot, lat, start sql.NullFloat64
	var r model.Request
	var itl []byte
	if err := rows.Scan(append(lead, &in, &outLen, &ttft, &tpot, &lat, &start, &r.Error, &itl)...); err != nil {
		return r, err
	}
	r.InputLen, r.OutputLen = intOrUnknown(in), intOrUnknown(outLen)
	r.TTFT, r.TPOT, r.Latency, r.Start = floatOrNaN(ttft), floatOrNaN(tpot), floatOrNaN(lat), floatOrNaN(start)
	if itl != nil {
		r.ITL = UnpackGaps(itl)
	}
	return r, nil
}

func intOrUnknown(n sql.NullInt64) int {
	if !n.Valid {
		return -1
	}
	return int(n.Int64)
}

func floatOrNaN(f sql.NullFloat64) float64 {
	if !f.Valid {
		return math.NaN()
	}
	return f.Float64
}

// RunsWithLabel lists the ids of the runs with a label, oldest first.
func (s *Store) RunsWithLabel(label string) ([]int64, error) {
	nfc, nfd := labelForms(label)
	rows, err := s.db.Query(`SELECT id FROM runs WHERE label IN (?, ?) ORDER BY id`, nfc, nfd)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// Labels lists the distinct labels, sorted.
func (s *Store) Labels() ([]string, error) {
	rows, err := s.db.Query(`SELECT DISTINCT label FROM runs ORDER BY label`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var l string
		if err := rows.Scan(&l); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// DeleteRun removes a run with its requests; files no other run uses go with it.
func (s *Store) DeleteRun(id int64) error {
	return s.again(func() error { return s.deleteRun(id) })
}

func (s *Store) deleteRun(id int64) error {
	tx, err := s.begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	rows, err := tx.Query(`SELECT source_id FROM run_files WHERE run_id = ?`, id)
	if err != nil {
		return err
	}
	var files []int64
	for rows.Next() {
		var f int64
		if err := rows.Scan(&f); err != nil {
			rows.Close()
			return err
		}
		files = append(files, f)
	}
	rows.Close()
	res, err := tx.Exec(`DELETE FROM runs WHERE id = ?`, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("no run %d in the library", id)
	}
	if err := dropUnusedManifests(tx); err != nil {
		return err
	}
	for _, f := range files {
		if _, err := tx.Exec(`DELETE FROM source_files AS f WHERE f.id = ? AND `+unreferenced, f); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	s.reclaim()
	return nil
}

// Relabel moves runs to another arm (and role, when role is not empty).
func (s *Store) Relabel(ids []int64, label string, role model.Role) error {
	return s.again(func() error { return s.relabel(ids, label, role) })
}

func (s *Store) relabel(ids []int64, label string, role model.Role) error {
	if label == "" {
		return fmt.Errorf("a label cannot be empty")
	}
	label = NormLabel(label)
	tx, err := s.begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, id := range ids {
		if _, err := tx.Exec(`UPDATE runs SET label = ? WHERE id = ?`, label, id); err != nil {
			return err
		}
		if role != "" {
			if _, err := tx.Exec(`UPDATE runs SET role = ? WHERE id = ?`, string(role), id); err != nil {
				return err
			}
		}
	}
	return tx.Commit()
}

// LabelRoles maps each label to the role most of its runs have.
func (s *Store) LabelRoles() (map[string]model.Role, error) {
	rows, err := s.db.Query(`SELECT label, role, count(*) FROM runs GROUP BY label, role ORDER BY label, count(*) DESC`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]model.Role{}
	for rows.Next() {
		var label, role string
		var n int
		if err := rows.Scan(&label, &role, &n); err != nil {
			return nil, err
		}
		if _, ok := out[label]; !ok {
			out[label] = model.Role(role)
		}
	}
	return out, rows.Err()
}

// RunHeader returns one run without its per-request samples.
func (s *Store) RunHeader(id int64) (*model.Run, error) {
	r, err := scanRun(s.db.QueryRow(`SELECT `+runColumnsSQL+` FROM runs r WHERE r.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("no run %d in the library", id)
	}
	return r, err
}
