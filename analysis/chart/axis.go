package chart

import (
	"fmt"
	"math"
	"slices"
	"strconv"

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

// Options adjust the charts ForComparison, CDF and Histogram build; the zero Options are
// the defaults.
type Options struct {
	XAxis XAxis // CDFs' x axis
	// Tr translates the charts' fixed titles, axis labels and the legends' fixed words (the
	// English text is the key: "%s: median %s ms, %s"); nil keeps English. Numbers and the
	// arms' labels stay as they are.
	Tr func(string) string
	// Bins is how many equal bins a Histogram has; 0 means DefaultBins.
	Bins int
	// pooled is how many load points the CDFs' series pool (ForComparison on a sweep):
	// above one, the titles say so and the legends give no median, which would mix unlike loads.
	pooled int
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
			p.X.Tick.Marker = logTicks{}
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

// logTicks mark 1, 2 and 5 of each decade with labels (every digit when that leaves fewer than
// three labels) and the other digits without: gonum's LogTicks labels only powers of ten,
// which leaves a CDF spanning 20-90 ms with no number on its axis. An axis spanning less than
// a digit's step (12-18 ms) gets evenly spaced ticks.
type logTicks struct{}

func (logTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	labelled := func(every bool) int {
		ts = ts[:0]
		n := 0
		for e := math.Floor(math.Log10(min)); e <= math.Ceil(math.Log10(max)); e++ {
			for d := 1.0; d <= 9; d++ {
				v := d * math.Pow(10, e)
				if e < 0 {
					v = d / math.Pow(10, -e) // 3/10 prints 0.3, 3*0.1 does not
				}
				if v < min || v > max {
					continue
				}
				t := plot.Tick{Value: v}
				if every || d == 1 || d == 2 || d == 5 {
					t.Label = strconv.FormatFloat(v, 'f', -1, 64)
					n++
				}
				ts = append(ts, t)
			}
		}
		return n
	}
	if labelled(false) < 3 && labelled(true) < 2 {
		// Less than a decade between two digits (12-18 ms): evenly spaced numbers instead,
		// so the axis still has a scale to read.
		return niceTicks{n: 4}.Ticks(min, max)
	}
	return ts
}
