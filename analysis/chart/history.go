package chart

import (
	"errors"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"benchlens/analysis/history"
	"benchlens/model"
)

// OutlierColor marks a series' lone outliers (rule 13): orange, apart from both arms' colours.
var OutlierColor = color.NRGBA{R: 0xe0, G: 0x8a, B: 0x00, A: 0xff}

// stepColor marks a change point; a rejected one is grey.
var (
	stepColor     = color.NRGBA{R: 0xc6, G: 0x28, B: 0x28, A: 0xff}
	rejectedColor = color.NRGBA{R: 0xa0, G: 0xa0, B: 0xa0, A: 0xff}
)

// History draws one stage metric of a series at one load point, as the History view does:
// each run in series order at its median with a bar over its spread, lone outliers in
// orange, and each change point a vertical line labelled with its change (grey once rejected).
func History(rep history.Report, m model.StageMetric, point string) (*plot.Plot, error) {
	var pts, outs plotter.XYs
	var bars spreadBars
	outlier := map[int64]bool{}
	for _, o := range rep.Outliers {
		if o.Stage == m.Key && o.LoadPoint == point {
			outlier[o.Run] = true
		}
	}
	pos := map[int64]float64{}
	n := 0
	for _, r := range rep.Runs {
		if r.LoadPoint != point {
			continue
		}
		n++
		x := float64(n)
		pos[r.ID] = x
		v := r.Values[m.Key]
		if v == nil || math.IsNaN(*v) {
			continue
		}
		if outlier[r.ID] {
			outs = append(outs, plotter.XY{X: x, Y: *v})
		} else {
			pts = append(pts, plotter.XY{X: x, Y: *v})
		}
		if s, ok := r.Spread[m.Key]; ok {
			bars.XYs = append(bars.XYs, plotter.XY{X: x, Y: *v})
			bars.YErrors = append(bars.YErrors, struct{ Low, High float64 }{*v - s[0], s[1] - *v})
		}
	}
	if len(pts)+len(outs) == 0 {
		return nil, errors.New("no run of the series has " + m.Key + " at " + point)
	}
	p := newPlot(fmt.Sprintf("%s · %s", m.Title, point), "run in series order", fmt.Sprintf("%s (%s)", m.Short, m.Unit))
	lg := legend{p: p}
	if len(bars.XYs) > 0 {
		eb, err := plotter.NewYErrorBars(bars)
		if err != nil {
			return nil, err
		}
		eb.LineStyle = lineStyle(withAlpha(BaselineColor, 0x88))
		p.Add(eb)
	}
	for _, s := range []struct {
		xy    plotter.XYs
		c     color.Color
		label string
	}{{pts, BaselineColor, "median per run"}, {outs, OutlierColor, "lone outlier"}} {
		if len(s.xy) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(s.xy)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: s.c, Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}
		lg.series(s.label, nil, sc)
	}
	p.Y.Padding, p.X.Padding = vg.Points(4), vg.Points(4)
	p.X.Tick.Marker = wholeTicks{8} // runs are counted: no "2.5"th run
	lo, hi := p.Y.Min, p.Y.Max
	for _, cp := range rep.ChangePoints {
		x, ok := pos[cp.FirstRun]
		if cp.Stage != m.Key || cp.LoadPoint != point || !ok {
			continue
		}
		c := stepColor
		label := fmt.Sprintf("step %+.1f %% at run %d", cp.DeltaPct, cp.FirstRun)
		if cp.Triage != nil && cp.Triage.State == "rejected" {
			c, label = rejectedColor, label+" (rejected)"
		}
		l, err := plotter.NewLine(plotter.XYs{{X: x - 0.5, Y: lo}, {X: x - 0.5, Y: hi}})
		if err != nil {
			return nil, err
		}
		l.LineStyle = draw.LineStyle{Color: c, Width: LineWidth, Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}
		lg.series(label, nil, l)
	}
	lg.done()
	return p, nil
}

// spreadBars are each run's median with its spread below and above, for plotter.YErrorBars.
type spreadBars struct {
	plotter.XYs
	plotter.YErrors
}

func (b spreadBars) Len() int { return len(b.XYs) }
