package chart

import (
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// Laid is where the parts of a chart fall when Image draws it at a size, in pixels from the
// image's top left: what the app hit-tests (a legend entry under a click) and what tests
// check (no tick label over another, the legend off the data, nothing cut at the edges).
type Laid struct {
	Data, Title, XLabel, YLabel Rect
	XTicks, YTicks              []Rect // the labelled ticks' labels (along x, line by line)
	Legend                      []LegendEntry
	// Texts are the title's and the axis labels' lines as drawn (wrapped to the size).
	TitleText, XLabelText, YLabelText string
}

// Layout lays p out as Image draws it at w×h.
func Layout(p *plot.Plot, w, h int) (Laid, error) {
	W, H, _, err := size(w, h)
	if err != nil {
		return Laid{}, err
	}
	f := layout(p, canvasOf(draw.Canvas{Canvas: &recorder.Canvas{}, Rectangle: vg.Rectangle{Max: vg.Point{X: W, Y: H}}}))
	q := f.q
	da := q.DataCanvas(f.plotC).Rectangle
	px := func(r vg.Rectangle) Rect {
		return Rect{
			X0: float64(r.Min.X * vg.Length(w) / W), X1: float64(r.Max.X * vg.Length(w) / W),
			Y0: float64((H - r.Max.Y) * vg.Length(h) / H), Y1: float64((H - r.Min.Y) * vg.Length(h) / H),
		}
	}
	out := Laid{Data: px(da), TitleText: q.Title.Text, XLabelText: q.X.Label.Text, YLabelText: q.Y.Label.Text}
	if q.Title.Text != "" {
		r := q.Title.TextStyle.Rectangle(q.Title.Text)
		cx := (f.plotC.Min.X + f.plotC.Max.X) / 2
		tw, th := r.Max.X-r.Min.X, r.Max.Y-r.Min.Y
		out.Title = px(vg.Rectangle{Min: vg.Point{X: cx - tw/2, Y: f.plotC.Max.Y - th}, Max: vg.Point{X: cx + tw/2, Y: f.plotC.Max.Y}})
	}
	if q.X.Label.Text != "" {
		r := q.X.Label.TextStyle.Rectangle(q.X.Label.Text)
		cx := (da.Min.X + da.Max.X) / 2
		tw, th := r.Max.X-r.Min.X, r.Max.Y-r.Min.Y
		out.XLabel = px(vg.Rectangle{Min: vg.Point{X: cx - tw/2, Y: f.plotC.Min.Y}, Max: vg.Point{X: cx + tw/2, Y: f.plotC.Min.Y + th}})
	}
	if q.Y.Label.Text != "" {
		r := q.Y.Label.TextStyle.Rectangle(q.Y.Label.Text)
		cy := (da.Min.Y + da.Max.Y) / 2
		tw, th := r.Max.X-r.Min.X, r.Max.Y-r.Min.Y // drawn turned a quarter
		out.YLabel = px(vg.Rectangle{Min: vg.Point{X: f.plotC.Min.X, Y: cy - tw/2}, Max: vg.Point{X: f.plotC.Min.X + th, Y: cy + tw/2}})
	}
	for _, t := range q.X.Tick.Marker.Ticks(q.X.Min, q.X.Max) {
		if t.Label == "" || t.Value < q.X.Min || t.Value > q.X.Max {
			continue
		}
		// Line by line: a group's name passes under its neighbours' blank second lines.
		sty := q.X.Tick.Label
		lines := strings.Split(t.Label, "\n")
		lh := (sty.Rectangle(t.Label).Max.Y - sty.Rectangle(t.Label).Min.Y) / vg.Length(len(lines))
		x := da.Min.X + vg.Length(q.X.Norm(t.Value))*(da.Max.X-da.Min.X)
		top := da.Min.Y - q.X.Tick.Length
		for k, line := range lines {
			if strings.TrimSpace(line) == "" {
				continue
			}
			tw := sty.Width(line)
			y := top - vg.Length(k)*lh
			out.XTicks = append(out.XTicks, px(vg.Rectangle{Min: vg.Point{X: x - tw/2, Y: y - lh}, Max: vg.Point{X: x + tw/2, Y: y}}))
		}
	}
	for _, t := range q.Y.Tick.Marker.Ticks(q.Y.Min, q.Y.Max) {
		if t.Label == "" || t.Value < q.Y.Min || t.Value > q.Y.Max {
			continue
		}
		r := q.Y.Tick.Label.Rectangle(t.Label)
		y := da.Min.Y + vg.Length(q.Y.Norm(t.Value))*(da.Max.Y-da.Min.Y)
		tw, th := r.Max.X-r.Min.X, r.Max.Y-r.Min.Y
		right := da.Min.X - q.Y.Tick.Length
		out.YTicks = append(out.YTicks, px(vg.Rectangle{Min: vg.Point{X: right - tw, Y: y - th/2}, Max: vg.Point{X: right, Y: y + th/2}}))
	}
	for _, e := range f.legend {
		out.Legend = append(out.Legend, LegendEntry{Text: e.text, Series: e.series, Hidden: e.hidden, Box: px(e.box)})
	}
	return out, nil
}
