package chart

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// Readout is the data point under pixel (px, py) of p as Image draws it at w×h (pixels from
// the top left), and whether the pixel falls inside the data area. Linear axes, and a log x
// axis; another scale reports ok false.
func Readout(p *plot.Plot, w, h int, px, py float64) (x, y float64, ok bool) {
	da, W, H, ok := dataArea(p, w, h)
	if !ok {
		return 0, 0, false
	}
	// Pixels to vg lengths; vg's y axis points up.
	vx := vg.Length(px) * W / vg.Length(w)
	vy := H - vg.Length(py)*H/vg.Length(h)
	if vx < da.Min.X || vx > da.Max.X || vy < da.Min.Y || vy > da.Max.Y {
		return 0, 0, false
	}
	fx := float64((vx - da.Min.X) / (da.Max.X - da.Min.X))
	x = p.X.Min + fx*(p.X.Max-p.X.Min)
	if _, logX := p.X.Scale.(plot.LogScale); logX {
		x = p.X.Min * math.Pow(p.X.Max/p.X.Min, fx)
	}
	y = p.Y.Min + float64((vy-da.Min.Y)/(da.Max.Y-da.Min.Y))*(p.Y.Max-p.Y.Min)
	return x, y, true
}

// Pixel is where data point (x, y) of p lies in pixels from the top left when Image draws it at
// w×h, the inverse of Readout, and whether it falls inside the data area (a readout marks a
// curve's point there).
func Pixel(p *plot.Plot, w, h int, x, y float64) (px, py float64, ok bool) {
	da, W, H, ok := dataArea(p, w, h)
	if !ok || math.IsNaN(x) || math.IsNaN(y) {
		return 0, 0, false
	}
	fx := (x - p.X.Min) / (p.X.Max - p.X.Min)
	if _, logX := p.X.Scale.(plot.LogScale); logX {
		if x <= 0 {
			return 0, 0, false
		}
		fx = math.Log(x/p.X.Min) / math.Log(p.X.Max/p.X.Min)
	}
	fy := (y - p.Y.Min) / (p.Y.Max - p.Y.Min)
	if fx < 0 || fx > 1 || fy < 0 || fy > 1 {
		return 0, 0, false
	}
	vx := da.Min.X + vg.Length(fx)*(da.Max.X-da.Min.X)
	vy := da.Min.Y + vg.Length(fy)*(da.Max.Y-da.Min.Y)
	return float64(vx * vg.Length(w) / W), float64((H - vy) * vg.Length(h) / H), true
}

// DataTop is the pixel row of the top of p's data area drawn at w×h: a readout placed below it
// never covers the title.
func DataTop(p *plot.Plot, w, h int) (float64, bool) {
	da, _, H, ok := dataArea(p, w, h)
	if !ok {
		return 0, false
	}
	return float64((H - da.Max.Y) * vg.Length(h) / H), true
}

// dataArea is p's data area in vg units as Image draws it at w×h (which it makes W×H long),
// for linear axes and a log x axis.
func dataArea(p *plot.Plot, w, h int) (da vg.Rectangle, W, H vg.Length, ok bool) {
	if p == nil {
		return da, 0, 0, false
	}
	_, logX := p.X.Scale.(plot.LogScale)
	if _, lin := p.X.Scale.(plot.LinearScale); !lin && !logX {
		return da, 0, 0, false
	}
	if _, lin := p.Y.Scale.(plot.LinearScale); !lin {
		return da, 0, 0, false
	}
	W, H, _, err := size(w, h)
	if err != nil {
		return da, 0, 0, false
	}
	f := layout(p, canvasOf(draw.Canvas{Canvas: &recorder.Canvas{}, Rectangle: vg.Rectangle{Max: vg.Point{X: W, Y: H}}}))
	da = f.q.DataCanvas(f.plotC).Rectangle
	if da.Max.X <= da.Min.X || da.Max.Y <= da.Min.Y {
		return da, 0, 0, false
	}
	return da, W, H, true
}
