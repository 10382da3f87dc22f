package store

import (
	"database/sql"
	"errors"
	"fmt"
	"math"

	"benchlens/model"
)

// A run's point column (schema 16) is its load point (model.LoadPoint), packed as a listing
// packs it (pointVersion, then appendPoint's bytes: 80 bytes, where JSON took 220): PointOf of
// the whole run at import, its requests' measured lengths and whether their outputs were
// fixed included, so that a listing, which reads no requests, can show the request shape
// that tells apart the runs of one arm at one concurrency (a sweep of shapes). The migration
// to schema 16 computes it for the runs stored before from their requests; a reapplied
// manifest stores it anew (ManifestUpdate.Point).

const pointVersion = 1

// pointOf is the point column of a whole run.
func pointOf(run *model.Run) []byte {
	p := model.PointOf(run)
	return encodePoint(&p)
}

func encodePoint(p *model.LoadPoint) []byte {
	return appendPoint([]byte{pointVersion}, p)
}

// decodePoint reads a point column; nil for none (NULL: a run stored before schema 16 and not
// migrated).
func decodePoint(b []byte) (*model.LoadPoint, error) {
	if b == nil {
		return nil, nil
	}
	if len(b) == 0 || b[0] != pointVersion {
		return nil, fmt.Errorf("%w: a point not of version %d", errListing, pointVersion)
	}
	l := listingReader{b: b[1:]}
	p := l.point()
	if l.err == nil && len(l.b) > 0 {
		l.err = fmt.Errorf("%w: %d bytes after the point", errListing, len(l.b))
	}
	return p, l.err
}

// appendPoint packs a point into a listing: 0 for none, else 1, its four numbers as float64
// bits, its four texts, and 1 when a length was measured.
func appendPoint(b []byte, p *model.LoadPoint) []byte {
	if p == nil {
		return append(b, 0)
	}
	b = append(b, 1)
	for _, n := range []model.Num{p.MaxConcurrency, p.RequestRate, p.InputLen, p.OutputLen} {
		b = appendNum(b, n)
	}
	for _, s := range []string{p.InputFrom, p.OutputFrom, p.OutputFixed, p.Dataset} {
		b = appendText(b, s)
	}
	if p.Measured {
		return append(b, 1)
	}
	return append(b, 0)
}

// point reads what appendPoint wrote.
func (l *listingReader) point() *model.LoadPoint {
	if l.flag() == 0 {
		return nil
	}
	if len(l.points) == 0 {
		l.points = make([]model.LoadPoint, 256) // a batch's points in a few allocations, not one a run
	}
	p := &l.points[0]
	l.points = l.points[1:]
	for _, n := range []*model.Num{&p.MaxConcurrency, &p.RequestRate, &p.InputLen, &p.OutputLen} {
		*n = l.num()
	}
	for _, s := range []*string{&p.InputFrom, &p.OutputFrom, &p.OutputFixed, &p.Dataset} {
		*s = l.text()
	}
	p.Measured = l.flag() == 1
	return p
}

// flag reads one byte, 0 or 1.
func (l *listingReader) flag() byte {
	if len(l.b) == 0 || l.b[0] > 1 {
		l.err, l.b = errListing, nil
		return 0
	}
	f := l.b[0]
	l.b = l.b[1:]
	return f
}

// skipPoint steps over a packed point (briefLen).
func (l *listingReader) skipPoint() {
	if l.flag() == 0 {
		return
	}
	for range 4 {
		l.num()
	}
	for range 4 {
		l.bytes()
	}
	l.flag()
}

// fillPoints computes the point of every run stored without one from its columns and its
// requests' lengths, a batch at a time (schema 16's migration). A run whose JSON does not
// decode keeps none, as its listing does.
func fillPoints(tx *txn) error {
	after := int64(math.MinInt64)
	for {
		rows, err := tx.Query(`SELECT `+runColumnsSQL+` FROM runs r WHERE r.point IS NULL AND r.id > ? ORDER BY r.id LIMIT ?`, after, listBatch)
		if err != nil {
			return err
		}
		var runs []*model.Run
		byID := map[int64]*model.Run{}
		manifests := map[string]model.Manifest{}
		read := 0
		for rows.Next() {
			var c runCols
			if err := c.scan(rows); err != nil {
				rows.Close()
				return err
			}
			read, after = read+1, c.id
			if r, err := c.decode(manifests); err == nil {
				runs = append(runs, r)
				byID[r.ID] = r
			}
		}
		if err := errors.Join(rows.Err(), rows.Close()); err != nil {
			return err
		}
		if read == 0 {
			return nil
		}
		if len(runs) == 0 {
			continue
		}
		if err := lengthsOf(tx, runs, byID); err != nil {
			return err
		}
		for _, r := range runs {
			if _, err := tx.Exec(`UPDATE runs SET point = ? WHERE id = ?`, pointOf(r), r.ID); err != nil {
				return err
			}
		}
	}
}

// lengthsOf reads the runs' requests as far as a load point reads them: lengths and errors.
func lengthsOf(tx *txn, runs []*model.Run, byID map[int64]*model.Run) error {
	ids := make([]int64, len(runs))
	for i, r := range runs {
		ids[i] = r.ID
	}
	in, args := inList(ids)
	rows, err := tx.Query(`SELECT run_id, input_len, output_len, error FROM requests WHERE run_id IN `+in+` ORDER BY run_id, idx`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var in64, out64 sql.NullInt64
		var q model.Request
		if err := rows.Scan(&id, &in64, &out64, &q.Error); err != nil {
			return err
		}
		q.InputLen, q.OutputLen = intOrUnknown(in64), intOrUnknown(out64)
		q.TTFT, q.TPOT, q.Latency, q.Start = math.NaN(), math.NaN(), math.NaN(), math.NaN()
		r := byID[id]
		r.Requests = append(r.Requests, q)
	}
	return rows.Err()
}
