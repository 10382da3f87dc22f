package chart

import (
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Colours are from the Okabe-Ito palette, which stays distinct for the common forms of colour
// blindness.
var (
	// BaselineColor draws the baseline arm on every chart.
	BaselineColor color.Color = color.RGBA{R: 0x00, G: 0x72, B: 0xB2, A: 0xFF} // blue
	// CandidateColor draws the candidate arm on every chart.
	CandidateColor color.Color = color.RGBA{R: 0xE6, G: 0x9F, B: 0x00, A: 0xFF} // orange
	// Palette colours the series after the first two (which take BaselineColor and
	// CandidateColor), in turn.
	Palette = []color.Color{
		color.RGBA{R: 0x00, G: 0x9E, B: 0x73, A: 0xFF}, // bluish green
		color.RGBA{R: 0xCC, G: 0x79, B: 0xA7, A: 0xFF}, // reddish purple
		color.RGBA{R: 0x56, G: 0xB4, B: 0xE9, A: 0xFF}, // sky blue
		color.RGBA{R: 0xD5, G: 0x5E, B: 0x00, A: 0xFF}, // vermillion
		color.RGBA{R: 0x00, G: 0x00, B: 0x00, A: 0xFF}, // black
	}

	// BetterColor fills a stage change that is significant and in the good direction.
	BetterColor color.Color = color.RGBA{R: 0x00, G: 0x9E, B: 0x73, A: 0xFF} // bluish green
	// WorseColor fills a stage change that is significant and in the bad direction.
	WorseColor color.Color = color.RGBA{R: 0xD5, G: 0x5E, B: 0x00, A: 0xFF} // vermillion
	// NeutralColor fills a stage change that is not significant ("~").
	NeutralColor color.Color = color.RGBA{R: 0xBB, G: 0xBB, B: 0xBB, A: 0xFF}
	// InkColor draws zero lines, whiskers and outlines.
	InkColor color.Color = color.RGBA{R: 0x33, G: 0x33, B: 0x33, A: 0xFF}
	// GridColor draws the background grid.
	GridColor color.Color = color.RGBA{R: 0xE4, G: 0xE4, B: 0xE4, A: 0xFF}
)

// Fonts and lines: sized to read well on an 800×500 px image at DPI.
var (
	// Font is the typeface of every text; gonum/plot embeds it, so rendering is the same on
	// every machine.
	Font = font.Font{Typeface: "Liberation", Variant: "Sans"}
	// TitleSize, LabelSize, TickSize and LegendSize are the font sizes of the title, the axis
	// labels, the tick labels and the legend.
	TitleSize  = vg.Points(14)
	LabelSize  = vg.Points(12)
	TickSize   = vg.Points(11)
	LegendSize = vg.Points(11)
	// LineWidth is the width of data lines.
	LineWidth = vg.Points(1.8)
	// Margin is the white space around a rendered chart.
	Margin = vg.Points(8)
	// DPI is the resolution Image and PNG render at for DesignWidth×DesignHeight: 96, a
	// common screen's.
	DPI = 96
	// DesignWidth and DesignHeight are the image size, in pixels, the fonts are sized for;
	// other sizes render at a resolution scaled to match, never below MinScale × DPI.
	DesignWidth, DesignHeight = 800, 500
	MinScale                  = 0.7
)

// Data shaping.
var (
	// MaxITLPoints bounds the inter-token gaps Samples returns per arm, thinned evenly.
	MaxITLPoints = 20000
	// AxisQuantile ends the x axis of CDF and Histogram at the largest per-series quantile of
	// this level (0.99: p99), so one extreme outlier does not squash the chart; the label then
	// says where the axis ends and what the maximum was. 1 or more shows everything.
	AxisQuantile = 0.99
	// DefaultBins is the bin count Histogram uses when given none.
	DefaultBins = 40
	// CDFYLabel is the y label of CDF charts.
	CDFYLabel = "share of requests"
	// HistogramYLabel is the y label of Histogram charts.
	HistogramYLabel = "share of samples (%)"
)

// seriesColor is the colour of the i-th series unless it asks for one.
func seriesColor(i int, own color.Color) color.Color {
	switch {
	case own != nil:
		return own
	case i == 0:
		return BaselineColor
	case i == 1:
		return CandidateColor
	}
	return Palette[(i-2)%len(Palette)]
}

// lineStyle is a data line of a colour.
func lineStyle(c color.Color) draw.LineStyle {
	return draw.LineStyle{Color: c, Width: LineWidth}
}

// newPlot returns a plot with the package's fonts, a light grid and the axis labels.
func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = font.From(Font, TitleSize)
	p.Title.Padding = vg.Points(8)
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Font = font.From(Font, LabelSize)
		ax.Tick.Label.Font = font.From(Font, TickSize)
		ax.Label.Padding = vg.Points(4)
	}
	p.X.Tick.Marker = niceTicks{8}
	p.Y.Tick.Marker = niceTicks{8}
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Legend.TextStyle.Font = font.From(Font, LegendSize)
	g := plotter.NewGrid()
	g.Vertical.Color, g.Horizontal.Color = GridColor, GridColor
	g.Vertical.Width, g.Horizontal.Width = vg.Points(0.6), vg.Points(0.6)
	p.Add(g)
	return p
}

// niceTicks labels about n ticks at steps of 1, 2, 2.5 or 5 times a power of ten, with an
// unlabelled tick halfway between.
type niceTicks struct{ n int }

func (t niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || !finite(lo) || !finite(hi) {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	raw := (hi - lo) / float64(t.n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 2.5, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	decimals := max(0, int(-math.Floor(math.Log10(step)+1e-9)))
	if s := step / math.Pow(10, math.Floor(math.Log10(step)+1e-9)); math.Abs(s-2.5) < 1e-9 {
		decimals++
	}
	minor := step / 2
	var ticks []plot.Tick
	for i := math.Ceil(lo/minor - 1e-9); i*minor <= hi+1e-9*minor; i++ {
		v := i * minor
		tk := plot.Tick{Value: v}
		if int64(i)%2 == 0 {
			if math.Abs(v) < minor/1e6 {
				v = 0
			}
			tk.Label = strings.Replace(strconv.FormatFloat(v, 'f', decimals, 64), "-", "\u2212", 1)
		}
		ticks = append(ticks, tk)
	}
	return ticks
}

// wholeTicks label about n ticks of a count (runs in series order) at whole steps of 1, 2 or 5
// times a power of ten; fitTicks thins them where they would touch.
type wholeTicks struct{ n int }

func (t wholeTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || !finite(lo) || !finite(hi) {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	step := 1.0
	for i := 0; (hi-lo)/step > float64(t.n); i++ {
		step *= []float64{2, 2.5, 2}[i%3] // 1, 2, 5, 10, 20, 50 …
	}
	var ticks []plot.Tick
	for v := math.Ceil(lo/step) * step; v <= hi; v += step {
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 0, 64)})
	}
	return ticks
}

// boxThumb is a filled (or outlined) square legend icon.
type boxThumb struct {
	fill    color.Color
	outline draw.LineStyle
}

func (t boxThumb) Thumbnail(c *draw.Canvas) {
	h := c.Max.Y - c.Min.Y
	side := min(h*0.8, c.Max.X-c.Min.X)
	cx := (c.Min.X + c.Max.X) / 2
	cy := (c.Min.Y + c.Max.Y) / 2
	pts := []vg.Point{
		{X: cx - side/2, Y: cy - side/2}, {X: cx + side/2, Y: cy - side/2},
		{X: cx + side/2, Y: cy + side/2}, {X: cx - side/2, Y: cy + side/2},
	}
	if t.fill != nil {
		c.FillPolygon(t.fill, pts)
	}
	if t.outline.Color != nil && t.outline.Width > 0 {
		c.StrokeLines(t.outline, append(pts, pts[0]))
	}
}

// lineThumb is a horizontal line legend icon.
type lineThumb struct{ style draw.LineStyle }

func (t lineThumb) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(t.style, c.Min.X, y, c.Max.X, y)
}

// AxisTicks are the values and labels of about n labelled ticks between lo and hi, as this
// package's charts mark an axis: for a chart drawn outside gonum (the app's history canvas).
func AxisTicks(lo, hi float64, n int) []plot.Tick {
	var out []plot.Tick
	for _, t := range (niceTicks{n}).Ticks(lo, hi) {
		if t.Label != "" && t.Value >= lo && t.Value <= hi {
			out = append(out, t)
		}
	}
	return out
}
