package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"benchlens/internal/par"
	"benchlens/model"
)

// listBatch is how many runs a listing reads and decodes at a time: a listing holds a batch
// or two however large the library.
const listBatch = 2048

// ListBatchRuns is how many runs a listing's batch holds, all but its last: a first batch of
// fewer is the whole listing.
const ListBatchRuns = listBatch

// ListBatch is one batch of a listing: runs in id order holding only the fields a list shows
// (see List), and their files' evidence summaries by run id.
type ListBatch struct {
	Runs     []*model.Run
	Evidence map[int64][]model.EvidenceSummary
}

// ListOptions say what a listing decodes beyond a run's identity and header.
type ListOptions struct {
	// Brief leaves out the definitions and the statistics (Summary and Recomputed stay
	// empty): what the app's sidebar shows.
	Brief bool
	// NoEvidence leaves out the evidence summaries (ListBatch.Evidence stays nil).
	NoEvidence bool
	// Medians keeps of each latency's statistics only the medians (the median and p50 that
	// model.Stats.Median reads): what `runs` prints. A map of one or two entries a metric is
	// a fraction of the whole one's allocation (about a third of a listing's). A metric whose
	// statistics have neither keeps an unknown median, so that model.Run.Used says of the
	// run what it says of the whole statistics.
	Medians bool
}

// List calls fn with every run of the library in id order, a batch at a time, while the next
// batch is read: what `runs` and the app's sidebar list (library.Row). Each run holds its id,
// label, role and bundle, the header's counts, rates, throughputs, tool, era, date, model,
// precision, phase, sample and warm-up, its definitions, the tool's and the recomputed
// statistics of the latencies (model.Latencies) and its manifest (one map per distinct
// manifest, shared, as are the definitions of a batch's runs that have the same: read them,
// never write them); not its requests, extra keys, metadata or warnings. Evidence that cannot be read leaves its
// batch without summaries, and the error is returned after the listing. Only those fields are
// decoded, out of the run's packed listing (listingblob.go), else out of its stored JSON
// (eachField). A damaged run ends the listing: fn has the runs before it, and the error names
// it. fn's error ends the listing and is returned.
func (s *Store) List(opt ListOptions, fn func(ListBatch) error) error {
	return pipeline(func(give func(ListBatch) bool) error { return s.eachListBatch(opt, give) }, fn)
}

// errGiveStopped is a listing's consumer saying stop.
var errGiveStopped = errors.New("the listing's consumer stopped")

// eachListBatch reads the listing's batches, giving each to give until it says stop: a
// batch is decoded (on all cores) while the next one's rows and evidence are read.
func (s *Store) eachListBatch(opt ListOptions, give func(ListBatch) bool) error {
	err := pipeline(func(read func(listRead) bool) error { return s.readListBatches(opt, read) }, func(r listRead) error {
		runs, damaged := decodeListed(r.cols, r.manifests, opt)
		if len(runs) > 0 && !give(ListBatch{Runs: runs, Evidence: r.evidence}) {
			return errGiveStopped
		}
		return damaged
	})
	if errors.Is(err, errGiveStopped) {
		return nil
	}
	return err
}

// pipeline runs produce on a goroutine of its own, handing each item it makes to consume
// while it makes the next. consume's error stops produce (give returns false) and is
// returned with produce's.
func pipeline[T any](produce func(give func(T) bool) error, consume func(T) error) error {
	items := make(chan T, 1)
	stop := make(chan struct{})
	var produceErr error
	go func() {
		defer close(items)
		produceErr = produce(func(v T) bool {
			select {
			case items <- v:
				return true
			case <-stop:
				return false
			}
		})
	}()
	var err error
	for v := range items {
		if err == nil {
			if err = consume(v); err != nil {
				close(stop)
			}
		}
	}
	return errors.Join(err, produceErr)
}

// listRead is a batch as read, not yet decoded: its rows, the manifests they name and their
// files' evidence summaries.
type listRead struct {
	cols      []listedCols
	manifests map[int64]model.Manifest
	evidence  map[int64][]model.EvidenceSummary
}

// readListBatches reads the listing's batches in id order, giving each to give until it says
// stop. Evidence that cannot be read leaves its batch without, and is the error at the end.
func (s *Store) readListBatches(opt ListOptions, give func(listRead) bool) error {
	known := map[int64]model.Manifest{} // decoded once however many batches name it
	after := int64(math.MinInt64)
	var evErr error
	for {
		cols, err := s.listedColumns(after, opt.Brief)
		if err != nil {
			return err
		}
		if len(cols) == 0 {
			return evErr
		}
		after = cols[len(cols)-1].id
		if len(known) > listBatch { // a library of ever-new manifests: memory stays bounded
			clear(known)
		}
		if err := s.manifestsOf(cols, known); err != nil {
			return err
		}
		r := listRead{cols: cols, manifests: map[int64]model.Manifest{}} // the batch's own: known changes meanwhile
		for _, c := range cols {
			if c.manifestID.Valid {
				r.manifests[c.manifestID.Int64] = known[c.manifestID.Int64]
			}
		}
		if !opt.NoEvidence {
			if r.evidence, err = s.evidenceSummaries(len(cols), `WHERE rf.run_id BETWEEN ? AND ?`, cols[0].id, after); err != nil && evErr == nil {
				evErr = err
			}
		}
		if !give(r) {
			return nil
		}
	}
}

// listedCols are the stored columns a listing reads of a run.
type listedCols struct {
	id                                        int64
	bundle, label, role, header, summary, rec string // header, summary, rec: "" when listing is read
	point                                     []byte // the point column (point.go); nil for none or when listing is read
	listing                                   []byte // packed (listingblob.go); nil before schema 12
	manifestID                                sql.NullInt64
	manifest                                  string // the run's own column, before schema 10
}

// listedColumnsSQL are the columns a listing reads of a run r (listedCols.scan); its JSON
// columns only when it has no listing.
const listedColumnsSQL = `r.id, r.bundle, r.label, r.role, r.listing IS NULL, r.listing,
	CASE WHEN r.listing IS NULL THEN r.header ELSE '' END, CASE WHEN r.listing IS NULL THEN r.summary ELSE '' END,
	CASE WHEN r.listing IS NULL THEN r.recomputed ELSE '' END, CASE WHEN r.listing IS NULL THEN r.point ELSE NULL END,
	r.manifest_id, r.manifest`

func (s *Store) listedColumns(after int64, brief bool) ([]listedCols, error) {
	return s.listedWhere(`r.id > ?`, []any{after}, listBatch, brief)
}

// listedWhere reads the listed columns of up to limit runs the condition names, in id order.
// The rows are one slice of limit and their listings share one buffer, not an allocation
// each and a copy of each that database/sql makes of the driver's (a fifth of what the app's
// sidebar allocated on 100,000 runs). A brief listing (ListOptions.Brief) keeps of each
// listing only what it decodes (briefLen): a fifth of it.
func (s *Store) listedWhere(where string, args []any, limit int, brief bool) ([]listedCols, error) {
	rows, err := s.db.Query(`SELECT `+listedColumnsSQL+` FROM runs r WHERE `+where+` ORDER BY r.id LIMIT `+strconv.Itoa(limit), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]listedCols, 0, limit)
	var buf []byte
	var raw sql.RawBytes // the driver's listing, copied into buf: one scratch for every row
	for rows.Next() {
		var c listedCols
		if buf, err = c.scan(rows, buf, &raw, brief); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// scan reads the columns of listedColumnsSQL, the listing appended to buf by way of raw (a
// listing's bytes are read, never written: a buffer made anew leaves the ones before where
// they were); of a brief listing's, the part it decodes.
func (c *listedCols) scan(rows *sql.Rows, buf []byte, raw *sql.RawBytes, brief bool) ([]byte, error) {
	var null bool
	if err := rows.Scan(&c.id, &c.bundle, &c.label, &c.role, &null, raw, &c.header, &c.summary, &c.rec, &c.point, &c.manifestID, &c.manifest); err != nil {
		return buf, err
	}
	if !null {
		listing := *raw
		if brief {
			listing = listing[:briefLen(listing)]
		}
		if cap(buf)-len(buf) < len(listing) {
			buf = make([]byte, 0, max(len(listing), 256<<10))
		}
		at := len(buf)
		buf = append(buf, listing...)
		c.listing = buf[at:len(buf):len(buf)]
		if c.listing == nil { // an empty listing is damage, not the absence of one
			c.listing = []byte{}
		}
	}
	return buf, nil
}

// manifestsOf reads and decodes the shared manifests the runs name that are not yet known.
func (s *Store) manifestsOf(cols []listedCols, known map[int64]model.Manifest) error {
	for _, c := range cols {
		id := c.manifestID.Int64
		if _, ok := known[id]; ok || !c.manifestID.Valid {
			continue
		}
		var text string
		if err := s.db.QueryRow(`SELECT content FROM manifests WHERE id = ?`, id).Scan(&text); err != nil {
			return fmt.Errorf("run %d: its manifest %d: %w", c.id, id, err)
		}
		var m model.Manifest
		if err := json.Unmarshal([]byte(text), &m); err != nil {
			return fmt.Errorf("run %d: damaged manifest: %w", c.id, err)
		}
		known[id] = m
	}
	return nil
}

// decodeListed decodes a batch on all cores, its runs made in one allocation, not one each
// (a listing's consumers keep what they show of a run, not the run); a damaged run ends it:
// the runs before it are returned with its error.
func decodeListed(cols []listedCols, manifests map[int64]model.Manifest, opt ListOptions) ([]*model.Run, error) {
	runs := make([]model.Run, len(cols))
	out := make([]*model.Run, len(cols))
	errs := make([]error, len(cols))
	readers := make([]listingReader, par.Workers(len(cols), 256))
	for i := range readers {
		readers[i].texts, readers[i].defs = map[string]string{}, map[string]map[string]string{}
		readers[i].brief, readers[i].medians = opt.Brief, opt.Medians
	}
	par.Each(len(cols), 256, func(w, i int) {
		r := &runs[i]
		*r = *model.NewRun("")
		if errs[i] = cols[i].decodeInto(&readers[w], manifests, r); errs[i] == nil {
			out[i] = r
		}
	})
	for i, err := range errs {
		if err != nil {
			return out[:i], err
		}
	}
	return out, nil
}

func (c *listedCols) decode(manifests map[int64]model.Manifest) (*model.Run, error) {
	return c.decodeWith(&listingReader{}, manifests)
}

// decodeWith decodes the run from its listing when it has one (schema 12), else from its JSON
// columns.
func (c *listedCols) decodeWith(l *listingReader, manifests map[int64]model.Manifest) (*model.Run, error) {
	r := model.NewRun("")
	if err := c.decodeInto(l, manifests, r); err != nil {
		return nil, err
	}
	return r, nil
}

// decodeInto is decodeWith into r, a run as model.NewRun makes it.
func (c *listedCols) decodeInto(l *listingReader, manifests map[int64]model.Manifest, r *model.Run) error {
	r.ID, r.Bundle, r.Label, r.Role = c.id, c.bundle, c.label, model.Role(c.role)
	var err error
	if c.listing != nil {
		err = l.unpack(c.listing, r)
	} else {
		err = eachField([]byte(c.header), func(key, v []byte) error {
			if l.brief && string(key) == "definitions" {
				return nil
			}
			return listedHeaderField(r, key, v)
		})
		if err == nil && !l.brief {
			err = listedStats(c.summary, r.Summary, l.medians)
		}
		if err == nil && !l.brief && c.rec != "{}" && c.rec != "" {
			r.Recomputed = map[string]model.Stats{}
			err = listedStats(c.rec, r.Recomputed, l.medians)
		}
		if err == nil {
			r.Point, err = decodePoint(c.point)
		}
	}
	if err == nil {
		if c.manifestID.Valid {
			r.Manifest = manifests[c.manifestID.Int64]
		} else {
			err = json.Unmarshal([]byte(c.manifest), &r.Manifest)
		}
	}
	if err != nil {
		return fmt.Errorf("run %d: damaged record: %w", c.id, err)
	}
	return nil
}

// listedHeaderField decodes one of the header's fields a listing shows into the run; the
// others are skipped.
func listedHeaderField(r *model.Run, key, v []byte) error {
	switch string(key) {
	case "tool":
		return jsonText(v, &r.Tool)
	case "tool_version":
		return jsonText(v, &r.ToolVersion)
	case "era":
		return jsonText(v, &r.Era)
	case "date":
		return jsonText(v, &r.Date)
	case "model":
		return jsonText(v, &r.Model)
	case "precision":
		return jsonText(v, &r.Precision)
	case "phase":
		return jsonText(v, &r.Phase)
	case "num_prompts":
		return r.NumPrompts.UnmarshalJSON(v)
	case "completed":
		return r.Completed.UnmarshalJSON(v)
	case "failed":
		return r.Failed.UnmarshalJSON(v)
	case "errored":
		return r.Errored.UnmarshalJSON(v)
	case "incomplete":
		return r.Incomplete.UnmarshalJSON(v)
	case "cancelled":
		return r.Cancelled.UnmarshalJSON(v)
	case "request_rate":
		return r.RequestRate.UnmarshalJSON(v)
	case "max_concurrency":
		return r.MaxConcurrency.UnmarshalJSON(v)
	case "duration_s":
		return r.DurationS.UnmarshalJSON(v)
	case "request_throughput":
		return r.RequestThroughput.UnmarshalJSON(v)
	case "request_goodput":
		return r.Goodput.UnmarshalJSON(v)
	case "output_throughput":
		return r.OutputThroughput.UnmarshalJSON(v)
	case "total_token_throughput":
		return r.TotalTokenThroughput.UnmarshalJSON(v)
	case "sampled":
		return json.Unmarshal(v, &r.Sampled)
	case "tool_warmup":
		return json.Unmarshal(v, &r.ToolWarmup)
	case "definitions":
		if string(v) == "null" {
			return nil
		}
		r.Definitions = map[string]string{}
		return eachField(v, func(metric, text []byte) error {
			var d string
			err := jsonText(text, &d)
			r.Definitions[string(metric)] = d
			return err
		})
	}
	return nil
}

// listedStats decodes the latencies' statistics (model.Latencies) out of a summary or
// recomputed column; with medians, their medians only (ListOptions.Medians).
func listedStats(text string, into map[string]model.Stats, medians bool) error {
	return eachField([]byte(text), func(metric, v []byte) error {
		name, ok := latency(metric)
		if !ok || string(v) == "null" {
			return nil
		}
		st := make(model.Stats, 8)
		dropped := false
		if err := eachField(v, func(stat, n []byte) error {
			var x model.Num
			if err := x.UnmarshalJSON(n); err != nil {
				return err
			}
			if !medians || isMedian(stat) {
				st[statName(stat)] = x
			} else {
				dropped = true
			}
			return nil
		}); err != nil {
			return err
		}
		into[name] = keptMedians(st, dropped)
		return nil
	})
}

// isMedian says whether a statistic is one model.Stats.Median reads.
func isMedian(stat []byte) bool { return string(stat) == "median" || string(stat) == "p50" }

// keptMedians is a metric's statistics of a Medians listing: an unknown median where every
// statistic it had was left out, so that it is not taken for a metric without any.
func keptMedians(st model.Stats, dropped bool) model.Stats {
	if dropped && len(st) == 0 {
		st["median"] = model.Unknown
	}
	return st
}

// latency is the metric's name when it is one of model.Latencies.
func latency(metric []byte) (string, bool) {
	for _, m := range model.Latencies {
		if m == string(metric) {
			return m, true
		}
	}
	return "", false
}

// statName is a statistic's name as a string, the usual ones without allocating each time.
func statName(stat []byte) string {
	for _, s := range commonStats {
		if s == string(stat) {
			return s
		}
	}
	return string(stat)
}

var commonStats = []string{"mean", "median", "std", "p90", "p95", "p99", "p50", "min", "max", "p25", "p75", "p10", "p5", "p1", "p999"}
