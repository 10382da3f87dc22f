package chart

import (
	"math"

	"benchlens/analysis/compare"
)

// Reader reads a chart under the mouse: Series for curves (CDFs, timelines: each series'
// value at the x under the mouse), Bars for the charts of changes (the bar under it); with
// neither, a readout gives the axes' values.
type Reader struct {
	Series SeriesAt
	Bars   BarsAt
}

// Bar is one bar of a chart of changes: what it stands for ("TPOT", "TPOT · short (≤ 512
// tokens)", "TPOT · concurrency 64") and the change it draws, at its place on the x axis.
type Bar struct {
	Name     string
	Delta    compare.StageDelta
	X, Width float64
}

// BarsAt are the bars of a chart, in drawing order.
type BarsAt []Bar

// At is the bar under x: the nearest, when x is within its width of its centre (over a bar
// or the margin beside it, not across an empty stretch of the axis).
func (bs BarsAt) At(x float64) (Bar, bool) {
	best, dist := -1, math.Inf(1)
	for i, b := range bs {
		if d := math.Abs(x - b.X); d < dist {
			best, dist = i, d
		}
	}
	if best < 0 || dist > bs[best].Width {
		return Bar{}, false
	}
	return bs[best], true
}
