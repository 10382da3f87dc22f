package chart

import "gonum.org/v1/plot"

// Zoom is a copy of p showing x from x0 to x1 and y from y0 to y1 (the app's pop-out zooms and
// pans with it), with p's legend and hidden series; p itself is unchanged.
func Zoom(p *plot.Plot, x0, x1, y0, y1 float64) *plot.Plot {
	q := *p
	q.X.Min, q.X.Max = min(x0, x1), max(x0, x1)
	q.Y.Min, q.Y.Max = min(y0, y1), max(y0, y1)
	if e := extraOf(p); e != nil {
		setExtra(&q, &extra{entries: e.entries, hidden: e.hidden})
	}
	return &q
}
