package chart

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"math"
	"regexp"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// ShareX gives the plots one x range, the union of theirs: side-by-side panels with their
// own auto-fitted axes mislead. Nil plots are skipped.
func ShareX(plots ...*plot.Plot) {
	share(plots, func(p *plot.Plot) *plot.Axis { return &p.X })
}

// ShareY gives the plots one y range, the union of theirs. Nil plots are skipped.
func ShareY(plots ...*plot.Plot) {
	share(plots, func(p *plot.Plot) *plot.Axis { return &p.Y })
}

func share(plots []*plot.Plot, axis func(*plot.Plot) *plot.Axis) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range plots {
		if p != nil {
			a := axis(p)
			lo, hi = min(lo, a.Min), max(hi, a.Max)
		}
	}
	for _, p := range plots {
		if p != nil {
			a := axis(p)
			a.Min, a.Max = lo, hi
		}
	}
}

// dpiFor is the resolution a w×h image renders at: DPI at DesignWidth×DesignHeight, scaled
// with the image (by the smaller of the two ratios, at least MinScale), so a chart keeps its
// layout at every size and a larger image is only sharper.
func dpiFor(w, h int) int {
	scale := min(float64(w)/float64(DesignWidth), float64(h)/float64(DesignHeight))
	return max(1, int(math.Round(float64(DPI)*max(scale, MinScale))))
}

// size is w×h pixels at dpiFor, in vg lengths, and that resolution.
func size(w, h int) (vg.Length, vg.Length, int, error) {
	if w <= 0 || h <= 0 {
		return 0, 0, 0, fmt.Errorf("chart: image of %d×%d pixels", w, h)
	}
	dpi := dpiFor(w, h)
	px := vg.Inch / vg.Length(dpi)
	return vg.Length(w) * px, vg.Length(h) * px, dpi, nil
}

// drawOn draws p on c, turning gonum/plot's panics (on ranges it cannot draw) into errors.
func drawOn(p *plot.Plot, c vg.CanvasSizer) (err error) {
	if p == nil {
		return errors.New("chart: no plot")
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("chart: drawing %q: %v", p.Title.Text, r)
		}
	}()
	f := layout(p, canvasOf(draw.New(c)))
	f.q.Draw(f.plotC)
	drawLegend(f.plotC, f.legend)
	return nil
}

// canvasOf is the part of a whole image's canvas a chart is laid out on: inside the Margin.
func canvasOf(c draw.Canvas) draw.Canvas {
	m := Margin
	return draw.Crop(c, m, -m, m, -m)
}

// Image renders p to an RGBA image of exactly w×h pixels, on white. At DesignWidth×DesignHeight
// it renders at DPI; other sizes scale the resolution with the image (see DesignWidth), so
// the layout stays the same.
func Image(p *plot.Plot, w, h int) (image.Image, error) {
	c, err := imgCanvas(p, w, h)
	if err != nil {
		return nil, err
	}
	return c.Image(), nil
}

func imgCanvas(p *plot.Plot, w, h int) (*vgimg.Canvas, error) {
	W, H, dpi, err := size(w, h)
	if err != nil {
		return nil, err
	}
	c := vgimg.NewWith(vgimg.UseWH(W, H), vgimg.UseDPI(dpi))
	if err := drawOn(p, c); err != nil {
		return nil, err
	}
	return c, nil
}

// PNG renders p as Image does and returns the PNG file's bytes.
func PNG(p *plot.Plot, w, h int) ([]byte, error) {
	c, err := imgCanvas(p, w, h)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("chart: writing PNG: %w", err)
	}
	return buf.Bytes(), nil
}

// SVG renders p as an SVG file w×h pixels large, laid out as Image lays it out, and returns
// its bytes. Fonts are referred to by name (Liberation Sans), not embedded.
func SVG(p *plot.Plot, w, h int) ([]byte, error) {
	W, H, _, err := size(w, h)
	if err != nil {
		return nil, err
	}
	c := vgsvg.NewWith(vgsvg.UseWH(W, H))
	if err := drawOn(p, c); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("chart: writing SVG: %w", err)
	}
	// vgsvg sizes the document in points; the viewBox keeps that layout and the size becomes
	// the pixels asked for.
	head := []byte(fmt.Sprintf(`<svg width="%dpx" height="%dpx"`, w, h))
	out := svgSize.ReplaceAll(buf.Bytes(), head)
	if !bytes.Contains(out, head) {
		return nil, errors.New("chart: unexpected SVG header")
	}
	return out, nil
}

var svgSize = regexp.MustCompile(`<svg width="[^"]*" height="[^"]*"`)
