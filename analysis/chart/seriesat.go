package chart

import (
	"fmt"
	"image/color"
	"math"
	"sort"
)

// SeriesAt reads every series of a chart at an x value, for a readout under the mouse.
type SeriesAt func(x float64) []SeriesValue

// SeriesValue is one series' value at an x: for a CDF, the share of its values at or below x
// (x is then that series' Y quantile); for a timeline, the busy % at that time. Text is how a
// readout prints it ("p62.5", "83% busy").
type SeriesValue struct {
	Label string
	Y     float64
	Text  string
	Color color.Color // the series' colour, to mark its point under the mouse
}

type labelled struct {
	label string
	e     *ECDF
}

type cdfAt []labelled

func (c cdfAt) read(x float64) []SeriesValue {
	out := make([]SeriesValue, len(c))
	for i, l := range c {
		xys := l.e.XYs
		n := sort.Search(len(xys), func(j int) bool { return xys[j].X > x })
		y := 0.0
		if n > 0 {
			y = xys[n-1].Y
		}
		out[i] = SeriesValue{Label: l.label, Y: y, Text: fmt.Sprintf("p%g", math.Round(1000*y)/10), Color: l.e.LineStyle.Color}
	}
	return out
}
