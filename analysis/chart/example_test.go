package chart_test

import (
	"bytes"
	"fmt"

	"gonum.org/v1/plot"

	"benchlens/analysis/chart"
)

// exampleCDF is ExampleCDF's chart; the golden test renders it too (testdata/cdf_example.png).
func exampleCDF() (*plot.Plot, error) {
	base := chart.Series{Label: "baseline", Values: []float64{41, 44, 45, 47, 47, 49, 52, 55, 61, 78}}
	cand := chart.Series{Label: "candidate", Values: []float64{33, 35, 36, 38, 39, 40, 42, 44, 51, 70}}
	p, _, err := chart.CDF(chart.Options{}, "Time to first token (prefill)", "time to first token (ms)", base, cand)
	return p, err
}

// A CDF of two arms' TTFT samples (in ms, e.g. from Samples), rendered to PNG for a report
// and to an image for the app.
func ExampleCDF() {
	base := chart.Series{Label: "baseline", Values: []float64{41, 44, 45, 47, 47, 49, 52, 55, 61, 78}}
	cand := chart.Series{Label: "candidate", Values: []float64{33, 35, 36, 38, 39, 40, 42, 44, 51, 70}}
	p, _, err := chart.CDF(chart.Options{}, "Time to first token (prefill)", "time to first token (ms)", base, cand)
	if err != nil {
		fmt.Println(err)
		return
	}
	img, err := chart.Image(p, 800, 500)
	if err != nil {
		fmt.Println(err)
		return
	}
	png, err := chart.PNG(p, 800, 500)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(img.Bounds().Dx(), "x", img.Bounds().Dy(), "px; PNG:", bytes.HasPrefix(png, []byte("\x89PNG")))
	fmt.Printf("x: %s, %.1f..%.1f\n", p.X.Label.Text, p.X.Min, p.X.Max)
	fmt.Printf("y: %s, %g..%g\n", p.Y.Label.Text, p.Y.Min, p.Y.Max)
	// Output:
	// 800 x 500 px; PNG: true
	// x: time to first token (ms), 32.1..78.9
	// y: share of requests, 0..1
}
