package store

import (
	"database/sql"
	"encoding/json"
	"fmt"

	"benchlens/internal/par"
	"benchlens/model"
)

// A series' runs are read as a listing reads them (the packed listing, listingblob.go) with
// the header's fields a listing leaves out (seriesHeaderField) and the extra keys: what load
// points (model.PointOf reads the dataset, the totals, the metadata's and the extra keys'
// command line and lengths), a series' values and the conditions of its timeline read of a
// run. Decoding every stored run's JSON columns through encoding/json was 0.45 s of CPU of
// History's first frame on 10,000 runs on a team library; the header is now picked through
// for its dozen other fields (eachField) and the extra keys decoded only when there are any.

// seriesColumnsSQL are the columns a series reads of a run r (seriesCols.scan); its summary
// and recomputed columns only when it has no listing.
const seriesColumnsSQL = `r.id, r.bundle, r.label, r.role, r.listing IS NULL, r.listing, r.header,
	CASE WHEN r.listing IS NULL THEN r.summary ELSE '' END, CASE WHEN r.listing IS NULL THEN r.recomputed ELSE '' END,
	r.extra, r.measured, r.manifest_id, r.manifest`

// seriesCols are the stored columns a series reads of a run.
type seriesCols struct {
	listedCols
	head     []byte // the header, scanned as bytes for eachField (listedCols.header only without a listing)
	extra    string
	measured []byte // packMeasured's, or nil
}

func (c *seriesCols) scan(rows *sql.Rows) error {
	var null bool
	if err := rows.Scan(&c.id, &c.bundle, &c.label, &c.role, &null, &c.listing, &c.head, &c.summary, &c.rec,
		&c.extra, &c.measured, &c.manifestID, &c.manifest); err != nil {
		return err
	}
	switch {
	case null:
		c.listing, c.header = nil, string(c.head)
	case c.listing == nil: // an empty listing is damage, not the absence of one
		c.listing = []byte{}
	}
	return nil
}

// readSeries reads and decodes, in id order, the runs the condition names, with the decoded
// manifests they name by id (a run of a manifest not among them reads its own column).
func (s *Store) readSeries(where string, args []any, manifests map[int64]model.Manifest) ([]*model.Run, error) {
	rows, err := s.db.Query(`SELECT `+seriesColumnsSQL+` FROM runs r WHERE `+where+` ORDER BY r.id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var cols []seriesCols
	for rows.Next() {
		var c seriesCols
		if err := c.scan(rows); err != nil {
			return nil, err
		}
		cols = append(cols, c)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, c := range cols {
		if _, ok := manifests[c.manifestID.Int64]; c.manifestID.Valid && !ok {
			return nil, fmt.Errorf("run %d: its manifest %d is not in the library", c.id, c.manifestID.Int64)
		}
	}
	out := make([]*model.Run, len(cols))
	errs := make([]error, len(cols))
	readers := make([]listingReader, par.Workers(len(cols), 256))
	for i := range readers {
		readers[i].texts, readers[i].defs = map[string]string{}, map[string]map[string]string{}
	}
	par.Each(len(cols), 256, func(w, i int) {
		out[i], errs[i] = cols[i].decode(&readers[w], manifests)
		cols[i] = seriesCols{} // the text is not needed again
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// decode decodes a series' run: its listed fields (listedCols.decodeWith), the header's
// others and the extra keys.
func (c *seriesCols) decode(l *listingReader, manifests map[int64]model.Manifest) (*model.Run, error) {
	r, err := c.decodeWith(l, manifests)
	if err != nil {
		return nil, err
	}
	err = eachField(c.head, func(key, v []byte) error { return seriesHeaderField(r, key, v) })
	if err == nil && c.extra != "null" {
		err = json.Unmarshal([]byte(c.extra), &r.Extra)
	}
	if err != nil {
		return nil, fmt.Errorf("run %d: damaged record: %w", c.id, err)
	}
	r.Measured = unpackMeasured(c.measured)
	return r, nil
}

// seriesHeaderField decodes one of the header's fields that a listing leaves out
// (listedHeaderField decodes the others) into the run; the others are skipped. Between them
// they decode every field EncodeRun writes into the header (TestSeriesHeaderFields).
func seriesHeaderField(r *model.Run, key, v []byte) error {
	switch string(key) {
	case "backend":
		return jsonText(v, &r.Backend)
	case "tokenizer":
		return jsonText(v, &r.Tokenizer)
	case "dataset":
		return jsonText(v, &r.Dataset)
	case "precision_from":
		return jsonText(v, &r.PrecisionFrom)
	case "identified_by":
		return jsonText(v, &r.IdentifiedBy)
	case "phase_why":
		return jsonText(v, &r.PhaseWhy)
	case "burstiness":
		return r.Burstiness.UnmarshalJSON(v)
	case "total_input_tokens":
		return r.TotalInputTokens.UnmarshalJSON(v)
	case "total_output_tokens":
		return r.TotalOutputTokens.UnmarshalJSON(v)
	case "input_throughput":
		return r.InputThroughput.UnmarshalJSON(v)
	case "metadata":
		return json.Unmarshal(v, &r.Metadata)
	case "warnings":
		return json.Unmarshal(v, &r.Warnings)
	}
	return nil
}
