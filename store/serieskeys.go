package store

import (
	"math"

	"benchlens/model"
)

// SeriesKeys are what a library's series are named by (a label, or a manifest's series):
// the labels and the manifests its measured runs carry.
type SeriesKeys struct {
	Labels []string
	// Manifests are shared with the runs that name them: read them, never write them.
	Manifests []model.Manifest
}

// SeriesKeys returns the distinct labels and manifests of the library's runs, leaving out
// those only warm-up runs carry (a warm-up is never part of a series). It reads them out of
// their indexes, a few hundred in a team library however many nights it holds, then of
// each its runs in id order until one is measured (the first, but for an arm of warm-ups):
// not a listing of every run, which the app's first frame made beside the sidebar's. A
// run's own manifest column is not read: since schema 10 every run names a shared one.
func (s *Store) SeriesKeys() (SeriesKeys, error) {
	var keys SeriesKeys
	labels, err := column[string](s.db, `SELECT DISTINCT label FROM runs`)
	if err != nil {
		return keys, err
	}
	for _, l := range labels {
		r, err := s.anyMeasured(`r.label = ?`, l, nil)
		if err != nil {
			return keys, err
		}
		if r != nil {
			keys.Labels = append(keys.Labels, l)
		}
	}
	ids, err := column[int64](s.db, `SELECT DISTINCT manifest_id FROM runs WHERE manifest_id IS NOT NULL`)
	if err != nil {
		return keys, err
	}
	manifests := map[int64]model.Manifest{}
	for _, id := range ids {
		r, err := s.anyMeasured(`r.manifest_id = ?`, id, manifests)
		if err != nil {
			return keys, err
		}
		if r != nil {
			keys.Manifests = append(keys.Manifests, r.Manifest)
		}
	}
	return keys, nil
}

// seriesKeyBatch is how many runs of a pair anyMeasured reads at a time: the first is
// nearly always measured, and a team library's server sends no more than asked.
const seriesKeyBatch = 16

// anyMeasured is a run the condition (on one argument) names that is not a warm-up (brief,
// as List reads it, its manifest decoded into manifests), nil when every one is.
func (s *Store) anyMeasured(where string, arg any, manifests map[int64]model.Manifest) (*model.Run, error) {
	if manifests == nil {
		manifests = map[int64]model.Manifest{}
	}
	after := int64(math.MinInt64)
	l := &listingReader{brief: true}
	for {
		cols, err := s.listedWhere(where+` AND r.id > ?`, []any{arg, after}, seriesKeyBatch, true)
		if err != nil || len(cols) == 0 {
			return nil, err
		}
		if err := s.manifestsOf(cols, manifests); err != nil {
			return nil, err
		}
		for _, c := range cols {
			r, err := c.decodeWith(l, manifests)
			if err != nil {
				return nil, err
			}
			if !r.IsWarmup() {
				return r, nil
			}
		}
		after = cols[len(cols)-1].id
	}
}
