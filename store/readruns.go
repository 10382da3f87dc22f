package store

import (
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"benchlens/model"
)

// batchRuns is how many runs one batched read names: well inside either engine's limit on
// parameters, and a thousand-run arm is a handful of statements (a team library's round
// trips), not three per run.
const batchRuns = 500

// RunsWithRequests returns the runs with the ids, in the ids' order, each with its
// per-request samples, reading them batchRuns at a time. An id the library lacks is an error
// naming it.
func (s *Store) RunsWithRequests(ids []int64) ([]*model.Run, error) {
	out := make([]*model.Run, 0, len(ids))
	for chunk := range slices.Chunk(ids, batchRuns) {
		runs, err := s.runsChunk(chunk)
		if err != nil {
			return nil, err
		}
		out = append(out, runs...)
	}
	return out, nil
}

// runsChunk reads up to batchRuns runs: one statement for their rows, one for every request
// of them in (run, index) order.
func (s *Store) runsChunk(ids []int64) ([]*model.Run, error) {
	in, args := inList(ids)
	rows, err := s.db.Query(`SELECT `+runColumnsSQL+` FROM runs r WHERE r.id IN `+in, args...)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]*model.Run, len(ids))
	manifests := map[string]model.Manifest{}
	for rows.Next() {
		var c runCols
		if err := c.scan(rows); err != nil {
			rows.Close()
			return nil, err
		}
		r, err := c.decode(manifests)
		if err != nil {
			rows.Close()
			return nil, err
		}
		byID[r.ID] = r
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, id := range ids {
		if byID[id] == nil {
			return nil, fmt.Errorf("no run %d in the library", id)
		}
	}
	if err := s.requestsOf(in, args, byID); err != nil {
		return nil, err
	}
	out := make([]*model.Run, len(ids))
	seen := make(map[int64]bool, len(ids))
	for i, id := range ids {
		r := byID[id]
		if seen[id] { // an id named twice is two runs, as read one by one
			cp := *r
			r = &cp
		}
		seen[id] = true
		out[i] = r
	}
	return out, nil
}

// requestsOf reads the requests of the runs an IN list names into their runs.
func (s *Store) requestsOf(in string, args []any, byID map[int64]*model.Run) error {
	rows, err := s.db.Query(`SELECT run_id, input_len, output_len, ttft, tpot, latency, start, error, itl
		FROM requests WHERE run_id IN `+in+` ORDER BY run_id, idx`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	var runID int64
	var in64, outLen sql.NullInt64
	var ttft, tpot, lat, start sql.NullFloat64
	var itl sql.RawBytes
	for rows.Next() {
		var q model.Request
		if err := rows.Scan(&runID, &in64, &outLen, &ttft, &tpot, &lat, &start, &q.Error, &itl); err != nil {
			return err
		}
		q.InputLen, q.OutputLen = intOrUnknown(in64), intOrUnknown(outLen)
		q.TTFT, q.TPOT, q.Latency, q.Start = floatOrNaN(ttft), floatOrNaN(tpot), floatOrNaN(lat), floatOrNaN(start)
		if itl != nil {
			q.ITL = UnpackGaps(itl)
		}
		r := byID[runID]
		r.Requests = append(r.Requests, q)
	}
	return rows.Err()
}

// inList is "(?, ?, …)" for the distinct ids, with them as the arguments.
func inList(ids []int64) (string, []any) {
	args := make([]any, 0, len(ids))
	seen := make(map[int64]bool, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			args = append(args, id)
		}
	}
	return "(" + strings.TrimSuffix(strings.Repeat("?, ", len(args)), ", ") + ")", args
}
