package chart

import (
	"errors"
	"image/color"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"benchlens/analysis/compare"
	"benchlens/analysis/slo"
	"benchlens/model"
)

// Titles of the SLO charts (METHOD.md rule 14).
var (
	TitleSLOCapacity = "SLO attainment against load"
	TitleSLOPareto   = "Output tok/s per GPU against tok/s per user"
)

// SLOCapacity draws each arm's SLO attainment (%) against the sweep's load, one marker per
// load point with the range over repeats, the target as a dashed line and each arm's
// capacity (where its line crosses the target) as a dotted drop line, both arms on shared
// axes. It is an error when the record has no SLO section with a load axis.
func SLOCapacity(title string, rec compare.Record) (*plot.Plot, error) {
	sec := rec.SLO
	if sec == nil || sec.Capacity == nil {
		return nil, errors.New("chart: no SLO sweep to draw")
	}
	load := func(p slo.Point) model.Num { return p.Load.MaxConcurrency }
	xLabel := "concurrency"
	if sec.Capacity.Axis == "request_rate" {
		load, xLabel = func(p slo.Point) model.Num { return p.Load.RequestRate }, "request rate (req/s)"
	}
	bl, cl := armLabels(rec.Arms.Baseline.Label, rec.Arms.Candidate.Label)
	p := newPlot(title, xLabel+" (whiskers: runs' range; dotted: capacity)", "SLO attainment (%)")
	lg := legend{p: p}
	xmax := 0.0
	for _, s := range []struct {
		label string
		side  func(slo.Point) slo.ArmPoint
		cap   slo.ArmCapacity
		col   color.Color
	}{{bl, func(q slo.Point) slo.ArmPoint { return q.Baseline }, sec.Capacity.Baseline, BaselineColor},
		{cl, func(q slo.Point) slo.ArmPoint { return q.Candidate }, sec.Capacity.Candidate, CandidateColor}} {
		var pts []CurvePoint
		for _, q := range sec.Points {
			a, x := s.side(q).Attainment, load(q)
			if !a.Median.Known() || !x.Known() {
				continue
			}
			pts = append(pts, CurvePoint{X: x.F(), XLow: x.F(), XHigh: x.F(), Y: 100 * a.Median.F(), YLow: 100 * a.Min.F(), YHigh: 100 * a.Max.F(),
				Label: shortPoint(q.Load)})
			xmax = max(xmax, x.F())
		}
		if len(pts) == 0 {
			continue
		}
		sort.Slice(pts, func(i, j int) bool { return pts[i].X < pts[j].X })
		cv, err := NewCurve(pts, s.col, false)
		if err != nil {
			return nil, err
		}
		parts := []plot.Plotter{cv}
		if s.cap.Value.Known() && s.cap.Bound == "" {
			drop, err := plotter.NewLine(plotter.XYs{{X: s.cap.Value.F(), Y: 0}, {X: s.cap.Value.F(), Y: 100 * sec.Target}})
			if err != nil {
				return nil, err
			}
			drop.LineStyle = lineStyle(s.col)
			drop.LineStyle.Dashes = []vg.Length{vg.Points(1.5), vg.Points(2.5)}
			parts = append(parts, drop)
		}
		lg.series(s.label+" ("+capacityWord(s.cap)+")", cv, parts...)
	}
	if len(lg.entries) == 0 {
		return nil, errors.New("chart: no load point has an attainment")
	}
	target, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 100 * sec.Target}, {X: xmax, Y: 100 * sec.Target}})
	if err != nil {
		return nil, err
	}
	target.LineStyle = lineStyle(color.Gray{Y: 110})
	target.LineStyle.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	lg.series("target "+model.FormatNum(model.Num(100*sec.Target))+" %", nil, target)
	p.Y.Min, p.Y.Max = 0, 104
	p.X.Min = 0
	p.X.Max *= 1.08 // room for the last marker's label
	lg.done()
	return p, nil
}

// capacityWord is an arm's capacity for its legend entry: "capacity 7.16", "capacity ≥ 64".
func capacityWord(c slo.ArmCapacity) string {
	return "capacity " + c.Text()
}

// SLOPareto draws each arm's load points on the plane of output tok/s per GPU against output
// tok/s per user (medians over repeats): the frontier of each arm as a solid line through
// filled markers, points off it as rings, both arms on shared axes. It is an error when no
// point has both figures.
func SLOPareto(title string, rec compare.Record) (*plot.Plot, error) {
	sec := rec.SLO
	if sec == nil || sec.Pareto == nil {
		return nil, errors.New("chart: no Pareto points to draw")
	}
	pr := sec.Pareto
	yLabel := "output tok/s per GPU"
	if !pr.PerGPUKnown {
		yLabel = "output tok/s per server (GPU count unknown)"
	}
	bl, cl := armLabels(rec.Arms.Baseline.Label, rec.Arms.Candidate.Label)
	p := newPlot(title, "output tok/s per user (1 / TPOT, median over requests)", yLabel)
	lg := legend{p: p}
	label := map[string]string{}
	for _, q := range sec.Points {
		label[q.Label] = shortPoint(q.Load)
	}
	for _, s := range []struct {
		name string
		pts  []slo.ParetoPoint
		col  color.Color
	}{{bl, pr.Baseline, BaselineColor}, {cl, pr.Candidate, CandidateColor}} {
		var on, off []CurvePoint
		for _, q := range s.pts {
			cp := CurvePoint{X: q.PerUser.F(), XLow: q.PerUser.F(), XHigh: q.PerUser.F(), Y: q.PerGPU.F(), YLow: q.PerGPU.F(), YHigh: q.PerGPU.F(), Label: label[q.Label]}
			if q.Frontier {
				on = append(on, cp)
			} else {
				off = append(off, cp)
			}
		}
		sort.Slice(on, func(i, j int) bool { return on[i].X < on[j].X })
		if len(on) > 0 {
			cv, err := NewCurve(on, s.col, false)
			if err != nil {
				return nil, err
			}
			lg.series(s.name+" frontier", nil, cv)
		}
		if len(off) > 0 {
			cv, err := NewCurve(off, s.col, true)
			if err != nil {
				return nil, err
			}
			cv.Line.Width = 0 // points off the frontier: markers only
			lg.series(s.name+" off the frontier", nil, cv)
		}
	}
	if len(lg.entries) == 0 {
		return nil, errors.New("chart: no point has both figures")
	}
	p.X.Min, p.Y.Min = 0, 0
	p.X.Max *= 1.1
	p.Y.Max *= 1.15 // room for the top point's label under the legend
	lg.done()
	return p, nil
}

// sloCharts adds the SLO charts of a record judged against an SLO.
func sloCharts(out map[string]*plot.Plot, opt Options, rec compare.Record) {
	if rec.SLO == nil {
		return
	}
	if p, err := SLOCapacity(opt.tr(TitleSLOCapacity), rec); err == nil {
		out["slo_capacity"] = p
	}
	if p, err := SLOPareto(opt.tr(TitleSLOPareto), rec); err == nil && len(rec.SLO.Points) > 1 {
		out["slo_pareto"] = p
	}
}
