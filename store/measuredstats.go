package store

import (
	"encoding/binary"
	"maps"
	"math"
	"slices"

	"benchlens/model"
)

// A run's measured column (schema 15) holds its model.MeasuredStats, packed at import: the
// version byte, Requests and Dropped as uvarints, then per latency in name order its name as
// a text and p50, p90, p99 as float64 bits (8 bytes each, so every float comes back to the
// bit). NULL is a run stored before schema 15, or whose header was rewritten (reapply): the
// compare computes its statistics from its requests instead, the same floats. A column this
// benchlens cannot read is taken as none for the same reason.
const measuredVersion = 1

// packMeasured packs ms; nil for none.
func packMeasured(ms *model.MeasuredStats) []byte {
	if ms == nil {
		return nil
	}
	b := make([]byte, 0, 16+len(ms.Quantiles)*30)
	b = append(b, measuredVersion)
	b = binary.AppendUvarint(b, uint64(ms.Requests))
	b = binary.AppendUvarint(b, uint64(ms.Dropped))
	for _, metric := range slices.Sorted(maps.Keys(ms.Quantiles)) {
		b = appendText(b, metric)
		for _, v := range ms.Quantiles[metric] {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	return b
}

// unpackMeasured reads what packMeasured wrote; nil for none, or for bytes it did not write.
func unpackMeasured(b []byte) *model.MeasuredStats {
	if len(b) == 0 || b[0] != measuredVersion {
		return nil
	}
	b = b[1:]
	var counts [2]int
	for i := range counts {
		v, n := binary.Uvarint(b)
		if n <= 0 || v > math.MaxInt32 {
			return nil
		}
		counts[i], b = int(v), b[n:]
	}
	l := listingReader{b: b}
	ms := &model.MeasuredStats{Requests: counts[0], Dropped: counts[1], Quantiles: map[string][3]float64{}}
	for l.err == nil && len(l.b) > 0 {
		metric := l.text()
		var q [3]float64
		for i := range q {
			q[i] = float64(l.num())
		}
		ms.Quantiles[metric] = q
	}
	if l.err != nil {
		return nil
	}
	return ms
}

// KeepMeasured stores the measured statistics a compare computed of runs that had none
// stored (runs stored before schema 15): the next compare of those runs reads them. Only
// empty cells are written, so statistics stored meanwhile stay as they are, all in one
// transaction; a library that cannot be written here is left as it is, without error (the
// statistics are computed again when needed).
func (s *Store) KeepMeasured(runs []*model.Run) error {
	if s.readOnly != nil || !slices.ContainsFunc(runs, func(r *model.Run) bool { return r.Measured != nil }) {
		return nil
	}
	return s.again(func() error {
		tx, err := s.begin()
		if err != nil {
			return err
		}
		defer tx.Rollback()
		for _, r := range runs {
			if r.Measured == nil {
				continue
			}
			if _, err := tx.Exec(`UPDATE runs SET measured = ? WHERE id = ? AND measured IS NULL`, packMeasured(r.Measured), r.ID); err != nil {
				return err
			}
		}
		return s.commit(tx)
	})
}
