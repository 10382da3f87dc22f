package chart

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/plot"

	"benchlens/analysis/stats"
)

// XAxis is how a CDF's x axis spans the data.
type XAxis int

const (
	// AxisClipped (the default) ends the axis at ClipQuantile of the pooled values when the
	// tail beyond would stretch it by half again, so a few outliers do not crush the body;
	// the label says where it was clipped and what the largest value is.
	AxisClipped XAxis = iota
	// AxisFull shows every value.
	AxisFull
	// AxisLog shows every positive value on a log scale.
	AxisLog
)

// ClipQuantile is where AxisClipped ends the x axis: the p99.5 of all series' values pooled.
var ClipQuantile = 0.995

// Options adjust the charts ForComparisonWith and CDFWith build.
type Options struct {
	XAxis XAxis
	// Tr translates the charts' fixed titles and axis labels (the English text is the key);
	// nil keeps English. Legends and numbers stay as they are.
	Tr func(string) string
}

func (o Options) tr(s string) string {
	if o.Tr == nil {
		return s
	}
	return o.Tr(s)
}

// setX spans p's x axis over the cleaned series as axis asks, with a little padding.
func setX(p *plot.Plot, clean [][]float64, axis XAxis, tr func(string) string) {
	lo, largest := math.Inf(1), math.Inf(-1)
	var pooled []float64
	for _, xs := range clean {
		lo, largest = min(lo, slices.Min(xs)), max(largest, slices.Max(xs))
		pooled = append(pooled, xs...)
	}
	if axis == AxisLog {
		smallest := math.Inf(1)
		for _, v := range pooled {
			if v > 0 {
				smallest = min(smallest, v)
			}
		}
		if !math.IsInf(smallest, 1) {
			p.X.Scale = plot.LogScale{}
			p.X.Tick.Marker = plot.LogTicks{Prec: -1}
			p.X.Min, p.X.Max = smallest/1.05, largest*1.05
			p.X.Label.Text += " · " + tr("log scale")
			return
		}
	}
	p.X.Min, p.X.Max = lo, largest
	if axis == AxisClipped {
		end := stats.Percentile(pooled, 100*ClipQuantile)
		// Clip only where the tail would stretch the axis by half again.
		if largest-lo > 1.5*(end-lo) && end > lo {
			p.X.Max = end
			p.X.Label.Text += fmt.Sprintf(" · "+tr("clipped at p%g (%s ms), largest %s ms"), 100*ClipQuantile, fmtNum(end), fmtNum(largest))
		}
	}
	pad := 0.02 * (p.X.Max - p.X.Min)
	p.X.Min -= pad
	p.X.Max += pad
}
