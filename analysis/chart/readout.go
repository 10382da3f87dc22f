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
	if p == nil {
		return 0, 0, false
	}
	_, logX := p.X.Scale.(plot.LogScale)
	if _, lin := p.X.Scale.(plot.LinearScale); !lin && !logX {
		return 0, 0, false
	}
	if _, lin := p.Y.Scale.(plot.LinearScale); !lin {
		return 0, 0, false
	}
	W, H, _, err := size(w, h)
	if err != nil {
		return 0, 0, false
	}
	m := Margin
	c := draw.Crop(draw.Canvas{Canvas: &recorder.Canvas{}, Rectangle: vg.Rectangle{Max: vg.Point{X: W, Y: H}}}, m, -m, m, -m)
	da := prepared(p).DataCanvas(c)
	// Pixels to vg lengths; vg's y axis points up.
	vx := vg.Length(px) * W / vg.Length(w)
	vy := H - vg.Length(py)*H/vg.Length(h)
	if vx < da.Min.X || vx > da.Max.X || vy < da.Min.Y || vy > da.Max.Y || da.Max.X <= da.Min.X || da.Max.Y <= da.Min.Y {
		return 0, 0, false
	}
	fx := float64((vx - da.Min.X) / (da.Max.X - da.Min.X))
	x = p.X.Min + fx*(p.X.Max-p.X.Min)
	if logX {
		x = p.X.Min * math.Pow(p.X.Max/p.X.Min, fx)
	}
	y = p.Y.Min + float64((vy-da.Min.Y)/(da.Max.Y-da.Min.Y))*(p.Y.Max-p.Y.Min)
	return x, y, true
}
