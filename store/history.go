package store

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"benchlens/internal/par"
	"benchlens/model"
)

// A series (METHOD.md rule 13) is read without listing the library: a team library holds
// every lab's runs, the series a few thousand of them. Its runs are found by their label or
// by their manifest, and a manifest is stored once however many runs share it (schema 10),
// so the manifests naming the series are found first, each decoded once, not once per night.

// SeriesRuns returns the runs (without per-request samples) whose label is label or whose
// manifest inManifest accepts, oldest import first, the caller choosing among them (warm-ups
// are returned too). Each run holds every field but its requests, with the tool's and the
// recomputed statistics of the latencies (model.Latencies) only, as a listing holds them:
// all a series reads (seriesread.go). Runs may share a decoded manifest and definitions, as
// a listing's do: read them, never change them.
func (s *Store) SeriesRuns(label string, inManifest func(model.Manifest) bool) ([]*model.Run, error) {
	nfc, nfd := labelForms(label)
	rows, err := s.db.Query(`SELECT id, content FROM manifests ORDER BY id`)
	if err != nil {
		return nil, err
	}
	var named []string
	manifests := map[int64]model.Manifest{}
	for rows.Next() {
		var id int64
		var text string
		if err := rows.Scan(&id, &text); err != nil {
			rows.Close()
			return nil, err
		}
		var m model.Manifest
		if err := json.Unmarshal([]byte(text), &m); err != nil {
			rows.Close()
			return nil, fmt.Errorf("manifest %d: damaged record: %w", id, err)
		}
		manifests[id] = m
		if inManifest(m) {
			named = append(named, strconv.FormatInt(id, 10))
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	where := `r.label IN (?, ?) OR r.manifest <> ''` // a run's own manifest column: no run since schema 10 has one
	if len(named) > 0 {
		where += ` OR r.manifest_id IN (` + strings.Join(named, ",") + `)`
	}
	out, err := s.readSeries(where, []any{nfc, nfd}, manifests)
	if err != nil {
		return nil, err
	}
	var kept []*model.Run
	for _, r := range out {
		if r.Label == nfc || r.Label == nfd || inManifest(r.Manifest) {
			kept = append(kept, r)
		}
	}
	return kept, nil
}

// SeriesRequests returns the per-request samples of the given runs, per run in their
// original order: one query a few thousand runs at a time, not a round trip per night.
func (s *Store) SeriesRequests(runs []int64) (map[int64][]model.Request, error) {
	out := map[int64][]model.Request{}
	return out, inChunks(runs, func(ids string) error { return s.seriesRequests(ids, out) })
}

func (s *Store) seriesRequests(ids string, out map[int64][]model.Request) error {
	rows, err := s.db.Query(`SELECT run_id, input_len, output_len, ttft, tpot, latency, start, error, itl
		FROM requests WHERE run_id IN (` + ids + `) ORDER BY run_id, idx`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var run int64
		r, err := scanRequest(rows, &run)
		if err != nil {
			return err
		}
		out[run] = append(out[run], r)
	}
	return rows.Err()
}

// seriesChunk is how many run ids one query names: well under either engine's limit on a
// statement.
const seriesChunk = 2000

// inChunks calls read with the runs' ids as SQL's list of them (integers, never text from
// outside), seriesChunk at a time.
func inChunks(runs []int64, read func(ids string) error) error {
	for from := 0; from < len(runs); from += seriesChunk {
		chunk := runs[from:min(len(runs), from+seriesChunk)]
		ids := make([]string, len(chunk))
		for i, id := range chunk {
			ids[i] = strconv.FormatInt(id, 10)
		}
		if err := read(strings.Join(ids, ",")); err != nil {
			return err
		}
	}
	return nil
}

// SeriesEvidence returns the evidence of every file of the given runs, per run in file order,
// each with its file's name: one query for a whole series, not a round trip per night.
func (s *Store) SeriesEvidence(runs []int64) (map[int64][]model.Evidence, error) {
	out := map[int64][]model.Evidence{}
	return out, inChunks(runs, func(ids string) error { return s.seriesEvidence(ids, out) })
}

func (s *Store) seriesEvidence(ids string, out map[int64][]model.Evidence) error {
	rows, err := s.db.Query(`SELECT rf.run_id, e.file_id, f.name, e.data FROM evidence e JOIN run_files rf ON rf.source_id = e.file_id
		JOIN source_files f ON f.id = e.file_id WHERE rf.run_id IN (` + ids + `) ORDER BY rf.run_id, e.file_id`)
	if err != nil {
		return err
	}
	type evCols struct {
		run, file  int64
		name, data string
	}
	var cols []evCols
	for rows.Next() {
		var c evCols
		if err := rows.Scan(&c.run, &c.file, &c.name, &c.data); err != nil {
			rows.Close()
			return err
		}
		cols = append(cols, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	evs := make([]model.Evidence, len(cols))
	errs := make([]error, len(cols))
	par.Each(len(cols), 64, func(_, i int) {
		if err := json.Unmarshal([]byte(cols[i].data), &evs[i]); err != nil {
			errs[i] = fmt.Errorf("file %d: damaged evidence: %w", cols[i].file, err)
		}
		evs[i].File = cols[i].name
	})
	for i, c := range cols {
		if errs[i] != nil {
			return errs[i]
		}
		out[c.run] = append(out[c.run], evs[i])
	}
	return nil
}
