package history

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"time"

	"benchlens/model"
)

// A series is the runs of one label, or of one manifest `series:` key, in order (rule 13).
// bundle.yaml names a run's series and, optionally, its place in it:
//
//	series: nightly-h100                      # the series, ordered by run date
//	series: {name: nightly-h100, order: 412}  # a declared position (a build number)
//	series: {name: nightly-h100, commit: 3f2a1c9, order: [9c1e2d0, 3f2a1c9, 77ab012]}
//	commit: 3f2a1c9                           # or image: registry/vllm:nightly-20261119
//
// A list under order is the declared commit (or image) order: a run's place is its commit's
// (or image's) position in it. Runs are ordered by declared place when every run has one,
// else by date; ties by date, then by id.

// SeriesOf is the series a run's manifest names, "" when none.
func SeriesOf(r *model.Run) string { return SeriesIn(r.Manifest) }

// SeriesIn is the series a manifest names (series: NAME or series: {name: NAME}), "" when none.
func SeriesIn(m model.Manifest) string {
	if s := m.String("series"); s != "" {
		return s
	}
	return m.String("series", "name")
}

// InSeries reports whether a run belongs to the named series: its label or its manifest's
// series is the name. Warm-up runs are never part of one.
func InSeries(r *model.Run, name string) bool {
	return !r.IsWarmup() && (r.Label == name || SeriesOf(r) == name)
}

// Commit and Image are the build a run declares (series.commit or commit, and the same for
// image), "" when none.
func Commit(r *model.Run) string { return declared(r, "commit") }

// Image is the container image a run declares.
func Image(r *model.Run) string { return declared(r, "image") }

func declared(r *model.Run, key string) string {
	if v := r.Manifest.String("series", key); v != "" {
		return v
	}
	return r.Manifest.String(key)
}

// place is the run's declared position in its series, and whether it declares one.
func place(r *model.Run) (float64, bool) {
	sec, _ := r.Manifest["series"].(map[string]any)
	switch o := sec["order"].(type) {
	case int:
		return float64(o), true
	case int64:
		return float64(o), true
	case float64:
		return o, true
	case string:
		f, err := strconv.ParseFloat(o, 64)
		return f, err == nil
	case []any:
		for _, key := range []string{Commit(r), Image(r)} {
			if key == "" {
				continue
			}
			for i, v := range o {
				if s, ok := v.(string); ok && s == key {
					return float64(i), true
				}
			}
		}
	}
	return 0, false
}

// Order sorts a series' runs (a copy): by declared place when every run has one, else by
// date; ties by date, then id. It says which order it used: "declared" or "date".
func Order(runs []*model.Run) ([]*model.Run, string) {
	out := slices.Clone(runs)
	declaredAll := len(out) > 0
	for _, r := range out {
		if _, ok := place(r); !ok {
			declaredAll = false
			break
		}
	}
	byDate := func(a, b *model.Run) int {
		return cmp.Or(cmp.Compare(dateKey(a.Date), dateKey(b.Date)), cmp.Compare(a.Date, b.Date), cmp.Compare(a.ID, b.ID))
	}
	if declaredAll {
		slices.SortStableFunc(out, func(a, b *model.Run) int {
			pa, _ := place(a)
			pb, _ := place(b)
			return cmp.Or(cmp.Compare(pa, pb), byDate(a, b))
		})
		return out, "declared"
	}
	slices.SortStableFunc(out, byDate)
	return out, "date"
}

// dateKey is a date as Unix nanoseconds (a date without a zone read as UTC), so dates
// written in different zones order by time; an unreadable date sorts first, by its text.
func dateKey(s string) int64 {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999",
		"2006-01-02T15:04", "20060102-150405", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UnixNano()
		}
	}
	return math.MinInt64
}

// Value is one run's figure of a stage metric: the median the analysis uses, with its spread
// (the median ± the run's standard deviation, where the run has one; the median otherwise).
type Value struct {
	Median, Low, High float64 // NaN when the run does not have the metric
}

// ValueOf is the run's value of a stage metric: the median of the statistics the analysis
// uses (recomputed from complete per-request records, else the tool's own), the statistic
// the metric names (a p99, with no spread), or the run's figure (output throughput).
func ValueOf(r *model.Run, m model.StageMetric) Value {
	nan := math.NaN()
	if m.Figure != nil {
		if v := m.Figure(r); v.Known() {
			return Value{v.F(), v.F(), v.F()}
		}
		return Value{nan, nan, nan}
	}
	s := r.Stats(m.Of)
	if m.Stat != "" {
		if v, ok := s.Stat(m.Stat); ok {
			return Value{v.F(), v.F(), v.F()}
		}
		return Value{nan, nan, nan}
	}
	med, ok := s.Median()
	if !ok {
		if med, ok = s.Stat("mean"); !ok {
			return Value{nan, nan, nan}
		}
	}
	v := Value{med.F(), med.F(), med.F()}
	if sd, ok := s.Stat("std"); ok {
		v.Low, v.High = math.Max(0, med.F()-sd.F()), med.F()+sd.F()
	}
	return v
}

// Point is a series' runs at one load point, in series order.
type Point struct {
	Point model.LoadPoint
	Label string
	Runs  []int // indices into the series' runs
}

// Points groups a series' (ordered) runs by load point, as compare groups repeats
// (LoadPoint.Same), points in load order.
func Points(runs []*model.Run) []Point {
	var out []Point
	for i, r := range runs {
		p := model.PointOf(r)
		k := slices.IndexFunc(out, func(g Point) bool { return g.Point.Same(p) })
		if k < 0 {
			out = append(out, Point{Point: p, Label: p.Label()})
			k = len(out) - 1
		}
		out[k].Runs = append(out[k].Runs, i)
	}
	slices.SortStableFunc(out, func(a, b Point) int {
		switch {
		case a.Point.Less(b.Point):
			return -1
		case b.Point.Less(a.Point):
			return 1
		}
		return 0
	})
	return out
}
