package gui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"

	"benchlens/analysis/history"
	"benchlens/model"
)

// A series with more runs than the chart has pixel columns is drawn a column at a time: far
// fewer marks than runs, yet every outlier its own dot, the step drawn and labelled, and the
// values' extremes reached.
func TestHistoryChartMarksAColumnAtATime(t *testing.T) {
	const n = 10000
	rep := history.Report{LoadPoints: []string{""}}
	lo, hi := 1e9, -1e9 // of every run, outliers included
	outliers := map[int64]bool{17: true, 4000: true, 9999: true}
	for i := range n {
		v := 10 + float64(i%7)*0.1
		if i >= n/2 {
			v += 1.5
		}
		if outliers[int64(i)] {
			v = 30
			rep.Outliers = append(rep.Outliers, history.Outlier{Stage: model.TPOT, Run: int64(i), Value: v})
		}
		lo, hi = min(lo, v), max(hi, v)
		rep.Runs = append(rep.Runs, history.RunInfo{ID: int64(i), Date: fmt.Sprintf("2000-01-01T00:00:%02dZ", i%60),
			Values: map[string]*float64{model.TPOT: &v}, Spread: map[string][2]float64{model.TPOT: {v - 0.2, v + 0.2}}})
	}
	rep.ChangePoints = []history.ChangePoint{{Stage: model.TPOT, LastRunBefore: n/2 - 1, FirstRun: n / 2, DeltaPct: 15}}
	m, _ := model.StageMetricOf(model.TPOT)
	size := fyne.NewSize(1280, 500)
	objs := historyChart(rep, m, "", 0, size)
	if len(objs) > 3*int(size.Width) {
		t.Errorf("%d marks for %d runs on %v px", len(objs), n, size.Width)
	}
	dots := circles(objs)
	if dots["outlier"] != len(outliers) {
		t.Errorf("outlier dots %v, want %d", dots, len(outliers))
	}
	if text := drawnText(&fyne.Container{Objects: objs}); !strings.Contains(text, "TPOT +15.0 %") {
		t.Errorf("the step is not labelled: %s", text)
	}
	top, bottom := float32(1e9), float32(-1e9) // of the run marks, outliers aside
	for _, o := range objs {
		switch c := o.(type) {
		case *canvas.Line:
			if c.StrokeColor == historyDot {
				top, bottom = min(top, c.Position1.Y, c.Position2.Y), max(bottom, c.Position1.Y, c.Position2.Y)
			}
		case *canvas.Circle:
			if c.FillColor == historyDot {
				top, bottom = min(top, c.Position1.Y), max(bottom, c.Position2.Y)
			}
		}
	}
	// The chart's own scale: 28 px from the top, 70 from the bottom, the spreads and 5 % over.
	h := size.Height - 28 - 70
	sLo, sHi := lo-0.2, hi+0.2
	pad := (sHi - sLo) * 0.05
	yOf := func(v float64) float32 { return 28 + h*float32((sHi+pad-v)/(sHi-sLo+2*pad)) }
	if want := yOf(10 + 0.6 + 1.5); top > want-2+0.01 {
		t.Errorf("the highest run mark tops at %v, the highest run is at %v", top, want)
	}
	if want := yOf(10); bottom < want+2-0.01 {
		t.Errorf("the lowest run mark ends at %v, the lowest run is at %v", bottom, want)
	}
}
