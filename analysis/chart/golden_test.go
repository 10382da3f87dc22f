package chart_test

import (
	"benchlens/internal/armtest"
	"bytes"
	"flag"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot"

	"benchlens/analysis/chart"
	"benchlens/model"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata")

// Golden images are compared pixel by pixel: a pixel differs when a channel differs by more
// than pixelThreshold (of 255), and at most maxDiffShare of the pixels may differ. That
// absorbs anti-aliasing differences between machines but not a moved line or label.
const (
	goldenW, goldenH = 800, 500
	pixelThreshold   = 40
	maxDiffShare     = 0.01
)

// diffShare is the share of pixels that differ beyond pixelThreshold; images of different
// sizes differ everywhere.
func diffShare(a, b image.Image) float64 {
	if a.Bounds().Size() != b.Bounds().Size() {
		return 1
	}
	ab, bb := a.Bounds(), b.Bounds()
	n := 0
	for y := 0; y < ab.Dy(); y++ {
		for x := 0; x < ab.Dx(); x++ {
			r1, g1, b1, a1 := a.At(ab.Min.X+x, ab.Min.Y+y).RGBA()
			r2, g2, b2, a2 := b.At(bb.Min.X+x, bb.Min.Y+y).RGBA()
			for _, d := range [4][2]uint32{{r1, r2}, {g1, g2}, {b1, b2}, {a1, a2}} {
				if diff := int(d[0]>>8) - int(d[1]>>8); diff > pixelThreshold || -diff > pixelThreshold {
					n++
					break
				}
			}
		}
	}
	return float64(n) / float64(ab.Dx()*ab.Dy())
}

// checkGolden renders p and compares it with testdata/name.png; with -update it rewrites that
// file, and on a mismatch it writes testdata/name.got.png for review.
func checkGolden(t *testing.T, name string, p *plot.Plot) {
	t.Helper()
	got, err := chart.PNG(p, goldenW, goldenH)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", name+".png")
	gotPath := filepath.Join("testdata", name+".got.png")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		os.Remove(gotPath)
		return
	}
	wantBytes, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	want, err := png.Decode(bytes.NewReader(wantBytes))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	gotImg, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	if share := diffShare(gotImg, want); share > maxDiffShare {
		if err := os.WriteFile(gotPath, got, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Errorf("%s: %.2f%% of pixels differ (limit %.2f%%); wrote %s", path, 100*share, 100*maxDiffShare, gotPath)
		return
	}
	os.Remove(gotPath)
}

// goldenPlots are the charts under golden test, built from small deterministic input.
func goldenPlots(t *testing.T) map[string]*plot.Plot {
	t.Helper()
	base, cand := armtest.MixedArms()
	rec := synthRecord()
	out := map[string]*plot.Plot{}
	add := func(name string, p *plot.Plot, err error) {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = p
	}
	p, err := exampleCDF()
	add("cdf_example", p, err)
	p, _, err = chart.Histogram(chart.Options{Bins: 30}, "Time per output token (decode)", "time per output token (ms)",
		chart.Series{Label: base.Label, Values: chart.Samples(base, model.TPOT)},
		chart.Series{Label: cand.Label, Values: chart.Samples(cand, model.TPOT)})
	add("histogram", p, err)
	nan := math.NaN()
	p, err = chart.Timeline("Device utilisation (npu 0 and 1)",
		chart.TimelineSeries{Label: "npu 0", T: []float64{10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20},
			Busy: []float64{90, 95, 92, nan, 40, nan, 5, 8, 60, 97, 99}},
		chart.TimelineSeries{Label: "npu 1", T: []float64{10, 12, 14, 16, 18, 20},
			Busy: []float64{20, 30, 35, 28, 22, 25}})
	add("timeline", p, err)
	all, _, err := chart.ForComparison(base, cand, rec, chart.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for k, p := range all {
		out["comparison_"+k] = p
	}
	return out
}

func TestGolden(t *testing.T) {
	for name, p := range goldenPlots(t) {
		t.Run(name, func(t *testing.T) { checkGolden(t, name, p) })
	}
}

// TestGoldenHasTeeth makes sure the tolerance does not hide a real change: the same CDF with
// the arms' colours swapped must fail the comparison.
func TestGoldenHasTeeth(t *testing.T) {
	p, err := exampleCDF()
	if err != nil {
		t.Fatal(err)
	}
	a, err := chart.Image(p, goldenW, goldenH)
	if err != nil {
		t.Fatal(err)
	}
	old := chart.BaselineColor
	chart.BaselineColor = chart.CandidateColor
	defer func() { chart.BaselineColor = old }()
	q, err := exampleCDF()
	if err != nil {
		t.Fatal(err)
	}
	b, err := chart.Image(q, goldenW, goldenH)
	if err != nil {
		t.Fatal(err)
	}
	if s := diffShare(a, b); s <= maxDiffShare/4 {
		t.Fatalf("swapping a colour changes only %.3f%% of pixels", 100*s)
	}
	again, err := chart.Image(p, goldenW, goldenH)
	if err != nil {
		t.Fatal(err)
	}
	if s := diffShare(a, again); s != 0 {
		t.Fatalf("rendering twice differs in %.3f%% of pixels", 100*s)
	}
}
