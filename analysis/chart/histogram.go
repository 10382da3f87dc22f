package chart

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"benchlens/analysis/stats"
	"benchlens/model"
)

// StepHistogram is a histogram drawn as a step outline (with an optional light fill), so
// several of them over the same bins overlay readably.
type StepHistogram struct {
	// Bins are adjacent bins in increasing order; Weight is the bin's height.
	Bins []plotter.HistogramBin
	draw.LineStyle
	// FillColor fills under the outline; nil for none.
	FillColor color.Color
}

// HistogramFillAlpha is the opacity (0-255) of the fill under each Histogram outline.
var HistogramFillAlpha uint8 = 0x30

// NewStepHistogram bins values into bins equal bins over [lo, hi]; each bin's weight is the
// share (in %) of all the values that fall in it, so series of different sizes compare.
// Values outside [lo, hi] count in the total but in no bin. It rejects no values, NaN,
// infinities, bins < 1 and an empty or non-finite range.
func NewStepHistogram(values []float64, lo, hi float64, bins int) (*StepHistogram, error) {
	switch {
	case len(values) == 0:
		return nil, errors.New("chart: histogram of no values")
	case bins < 1:
		return nil, fmt.Errorf("chart: histogram with %d bins", bins)
	case !finite(lo) || !finite(hi) || hi <= lo:
		return nil, fmt.Errorf("chart: histogram range [%v, %v]", lo, hi)
	}
	width := (hi - lo) / float64(bins)
	h := &StepHistogram{Bins: make([]plotter.HistogramBin, bins), LineStyle: lineStyle(BaselineColor)}
	for i := range h.Bins {
		h.Bins[i] = plotter.HistogramBin{Min: lo + float64(i)*width, Max: lo + float64(i+1)*width}
	}
	h.Bins[bins-1].Max = hi
	share := 100 / float64(len(values))
	for _, v := range values {
		if !finite(v) {
			return nil, fmt.Errorf("chart: histogram of a non-finite value (%v)", v)
		}
		if v < lo || v > hi {
			continue
		}
		i := min(int((v-lo)/width), bins-1)
		h.Bins[i].Weight += share
	}
	return h, nil
}

// Plot implements plot.Plotter.
func (h *StepHistogram) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	pts := []vg.Point{{X: trX(h.Bins[0].Min), Y: trY(0)}}
	for _, b := range h.Bins {
		pts = append(pts, vg.Point{X: trX(b.Min), Y: trY(b.Weight)}, vg.Point{X: trX(b.Max), Y: trY(b.Weight)})
	}
	pts = append(pts, vg.Point{X: trX(h.Bins[len(h.Bins)-1].Max), Y: trY(0)})
	if h.FillColor != nil {
		c.FillPolygon(h.FillColor, c.ClipPolygonXY(pts))
	}
	c.StrokeLines(h.LineStyle, c.ClipLinesXY(pts)...)
}

// DataRange implements plot.DataRanger.
func (h *StepHistogram) DataRange() (xmin, xmax, ymin, ymax float64) {
	for _, b := range h.Bins {
		ymax = max(ymax, b.Weight)
	}
	return h.Bins[0].Min, h.Bins[len(h.Bins)-1].Max, 0, ymax
}

// Thumbnail implements plot.Thumbnailer.
func (h *StepHistogram) Thumbnail(c *draw.Canvas) {
	boxThumb{fill: h.FillColor, outline: h.LineStyle}.Thumbnail(c)
}

// Histogram draws the distribution of one or more series over shared bins (opt.Bins equal
// bins, DefaultBins when opt.Bins < 1) as step outlines with a light fill, y the share of each series'
// values in % (HistogramYLabel), x in ms (xLabel names the metric and its unit). NaN values
// are left out; a series with no finite value, or no series, is an error. The bins end at
// AxisQuantile (see there); the label then says how far the largest value lies. It also
// returns what each series reads at an x: the share of its values in the bin holding x, and
// the bin ("12% in 10.5-11 ms").
func Histogram(opt Options, title, xLabel string, series ...Series) (*plot.Plot, SeriesAt, error) {
	clean, err := cleanSeries("histogram", series)
	if err != nil {
		return nil, nil, err
	}
	bins := opt.Bins
	if bins < 1 {
		bins = DefaultBins
	}
	lo := math.Inf(1)
	for _, xs := range clean {
		lo = min(lo, slices.Min(xs))
	}
	hi, largest := axisEnd(clean)
	if hi <= lo {
		hi = lo + 1
	}
	p := newPlot(title, xLabel, opt.tr(HistogramYLabel))
	lg := legend{p: p}
	var hists []labelledHist
	for i, s := range series {
		h, err := NewStepHistogram(clean[i], lo, hi, bins)
		if err != nil {
			return nil, nil, err
		}
		hists = append(hists, labelledHist{s.Label, h})
		col := seriesColor(i, s.Color)
		h.LineStyle = lineStyle(col)
		h.FillColor = withAlpha(col, HistogramFillAlpha)
		lg.series(fmt.Sprintf(opt.tr("%s: n = %d"), s.Label, len(clean[i])), nil, h)
	}
	lg.done()
	p.Y.Min = 0
	p.Y.Max *= 1.08 // headroom above the tallest bin
	if hi < largest {
		p.X.Label.Text += fmt.Sprintf(" · bins end at p%g, largest %s ms", 100*AxisQuantile, fmtNum(largest))
	}
	return p, histAt(hists), nil
}

type labelledHist struct {
	label string
	h     *StepHistogram
}

// histAt reads each histogram's bin at x; outside the bins it reads nothing.
func histAt(hists []labelledHist) SeriesAt {
	return func(x float64) []SeriesValue {
		var out []SeriesValue
		for _, lh := range hists {
			for _, b := range lh.h.Bins {
				if x >= b.Min && x <= b.Max {
					out = append(out, SeriesValue{Label: lh.label, Y: b.Weight,
						Text: fmt.Sprintf("%.1f%% in %s-%s", b.Weight, model.Num(b.Min).Readable(), model.Num(b.Max).Readable())})
					break
				}
			}
		}
		return out
	}
}

// axisEnd is where the x axis ends for AxisQuantile, and the largest value.
func axisEnd(clean [][]float64) (end, largest float64) {
	end, largest = math.Inf(-1), math.Inf(-1)
	for _, xs := range clean {
		largest = max(largest, slices.Max(xs))
		if AxisQuantile < 1 {
			end = max(end, stats.Percentile(slices.Clone(xs), 100*AxisQuantile))
		}
	}
	lo := math.Inf(1)
	for _, xs := range clean {
		lo = min(lo, slices.Min(xs))
	}
	// Cut only where the tail would stretch the axis by half again.
	if AxisQuantile >= 1 || largest-lo <= 1.5*(end-lo) {
		end = largest
	}
	return end, largest
}
