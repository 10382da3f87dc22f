package store

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"benchlens/model"
)

// A series (METHOD.md rule 13) is read without listing the library: a team library holds
// every lab's runs, the series a few thousand of them. Its runs are found by their label or
// by their manifest, and a manifest is stored once however many runs share it (schema 10),
// so each distinct manifest is read and decoded once, not once per night.

// SeriesRuns returns the runs (without per-request samples) whose label is label or whose
// manifest inManifest accepts, oldest import first, the caller choosing among them (warm-ups
// are returned too). Runs sharing a manifest share its decoded map: read it, never change it.
func (s *Store) SeriesRuns(label string, inManifest func(model.Manifest) bool) ([]*model.Run, error) {
	nfc, nfd := labelForms(label)
	manifests := map[int64]model.Manifest{}
	rows, err := s.db.Query(`SELECT id, content FROM manifests ORDER BY id`)
	if err != nil {
		return nil, err
	}
	var named []string
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
	rows, err = s.db.Query(`SELECT r.id, r.bundle, r.label, r.role, r.header, r.summary, r.recomputed, r.extra, r.manifest, coalesce(r.manifest_id, 0)
		FROM runs r WHERE `+where+` ORDER BY r.id`, nfc, nfd)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	type seriesCols struct {
		runCols
		manifestID int64
	}
	var cols []seriesCols
	for rows.Next() {
		var c seriesCols
		if err := rows.Scan(&c.id, &c.bundle, &c.label, &c.role, &c.header, &c.summary, &c.recomputed, &c.extra, &c.manifest, &c.manifestID); err != nil {
			return nil, err
		}
		if _, shared := manifests[c.manifestID]; shared {
			c.manifest = "null" // decoded once above
		}
		cols = append(cols, c)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]*model.Run, len(cols))
	errs := make([]error, len(cols))
	workers := max(1, min(runtime.GOMAXPROCS(0), len(cols)/256))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(cols); i += workers {
				out[i], errs[i] = cols[i].decode(nil)
				if m, shared := manifests[cols[i].manifestID]; shared && errs[i] == nil {
					out[i].Manifest = m
				}
			}
		}()
	}
	wg.Wait()
	var kept []*model.Run
	for i, r := range out {
		if errs[i] != nil {
			return nil, errs[i]
		}
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
	for from := 0; from < len(runs); from += seriesChunk {
		if err := s.seriesRequests(idList(runs[from:min(len(runs), from+seriesChunk)]), out); err != nil {
			return nil, err
		}
	}
	return out, nil
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

// idList is run ids as SQL's list of them: integers, never text from outside.
func idList(ids []int64) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(s, ",")
}

// SeriesEvidence returns the evidence of every file of the given runs, per run in file order,
// each with its file's name: one query for a whole series, not a round trip per night.
func (s *Store) SeriesEvidence(runs []int64) (map[int64][]model.Evidence, error) {
	out := map[int64][]model.Evidence{}
	for from := 0; from < len(runs); from += seriesChunk {
		if err := s.seriesEvidence(idList(runs[from:min(len(runs), from+seriesChunk)]), out); err != nil {
			return nil, err
		}
	}
	return out, nil
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
	workers := max(1, min(runtime.GOMAXPROCS(0), len(cols)/64))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(cols); i += workers {
				if err := json.Unmarshal([]byte(cols[i].data), &evs[i]); err != nil {
					errs[i] = fmt.Errorf("file %d: damaged evidence: %w", cols[i].file, err)
				}
				evs[i].File = cols[i].name
			}
		}()
	}
	wg.Wait()
	for i, c := range cols {
		if errs[i] != nil {
			return errs[i]
		}
		out[c.run] = append(out[c.run], evs[i])
	}
	return nil
}
