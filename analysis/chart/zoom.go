package chart

import (
	"strconv"
	"strings"

	"gonum.org/v1/plot"
)

// Zoom is a copy of p showing x from x0 to x1 and y from y0 to y1 (the app's pop-out zooms and
// pans with it), with p's legend and hidden series; p itself is unchanged. An axis whose
// fixed ticks are numbers (a CDF's 0, 0.25 … 1) gets ticks that follow the zoom.
func Zoom(p *plot.Plot, x0, x1, y0, y1 float64) *plot.Plot {
	q := *p
	q.X.Min, q.X.Max = min(x0, x1), max(x0, x1)
	q.Y.Min, q.Y.Max = min(y0, y1), max(y0, y1)
	for _, a := range []*plot.Axis{&q.X, &q.Y} {
		if _, fixed := a.Tick.Marker.(plot.ConstantTicks); fixed && numeric(a.Tick.Marker.Ticks(a.Min, a.Max)) {
			a.Tick.Marker = niceTicks{8}
		}
	}
	if e := extraOf(p); e != nil {
		setExtra(&q, &extra{entries: e.entries, hidden: e.hidden})
	}
	return &q
}

// numeric reports whether every tick label is a number (categories are not).
func numeric(ticks []plot.Tick) bool {
	for _, t := range ticks {
		if t.Label == "" {
			continue
		}
		s := strings.NewReplacer("\u2212", "-", "\u200b", "", "%", "").Replace(t.Label)
		if _, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err != nil {
			return false
		}
	}
	return true
}
