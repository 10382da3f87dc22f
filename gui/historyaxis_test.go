package gui

import (
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"

	"benchlens/analysis/history"
	"benchlens/model"
)

// The History chart's value axis is read off what is drawn: labels at even steps, each on its
// grid line, the scale linear, so a run's dot reads its median; the time axis names the
// series' ends (to the minute when it lies within one day) and the key says what dot and line
// are. The chart drew only its two extremes before (14.49 and 116.1 for medians near 60) and
// the same day at both ends.
func TestHistoryChartAxesReadTheValues(t *testing.T) {
	for _, c := range []struct {
		name        string
		dates       [2]string
		first, last string
	}{
		{"one day", [2]string{"2026-01-16T09:02:00", "2026-01-16T09:18:30"}, "2026-01-16 09:02", "09:18"},
		{"nights", [2]string{"2026-01-16T09:02:00", "2026-01-19T23:10:00"}, "2026-01-16", "2026-01-19"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := history.Report{LoadPoints: []string{""}}
			medians := []float64{64, 63, 66, 64, 65}
			for i, v := range medians {
				date := c.dates[0]
				if i == len(medians)-1 {
					date = c.dates[1]
				}
				rep.Runs = append(rep.Runs, history.RunInfo{ID: int64(i + 1), Date: date,
					Values: map[string]*float64{model.TTFT: &v}, Spread: map[string][2]float64{model.TTFT: {v - 48, v + 50}}})
			}
			m, _ := model.StageMetricOf(model.TTFT)
			objs := historyChart(rep, m, "", -1, fyne.NewSize(640, 330))

			type tick struct{ value, y float32 }
			var ticks []tick
			var grid []float32
			var dots []float32
			var texts []string
			for _, o := range objs {
				switch o := o.(type) {
				case *canvas.Text:
					texts = append(texts, o.Text)
					if v, err := strconv.ParseFloat(o.Text, 32); err == nil {
						ticks = append(ticks, tick{float32(v), o.Position().Y + 8}) // 11 pt text, centred on its line
					}
				case *canvas.Line:
					if o.StrokeColor == historyGrid {
						grid = append(grid, o.Position1.Y)
					}
				case *canvas.Circle:
					dots = append(dots, o.Position1.Y+3)
				}
			}
			if len(ticks) < 4 {
				t.Fatalf("%d value labels drawn, want at least 4: %q", len(ticks), texts)
			}
			for _, tk := range ticks {
				on := false
				for _, y := range grid {
					on = on || abs32(y-tk.y) < 1
				}
				if !on {
					t.Errorf("label %v is on no grid line (%v at %v)", tk.value, grid, tk.y)
				}
			}
			step, px := ticks[1].value-ticks[0].value, ticks[1].y-ticks[0].y
			for i := 1; i < len(ticks); i++ {
				if d := ticks[i].value - ticks[i-1].value; abs32(d-step) > 1e-3 || abs32(ticks[i].y-ticks[i-1].y-px) > 1 {
					t.Errorf("labels %v and %v are not an even step of %v over %v px", ticks[i-1], ticks[i], step, px)
				}
			}
			valueAt := func(y float32) float32 { return ticks[0].value + (y-ticks[0].y)/px*step }
			for i, y := range dots {
				if got := valueAt(y); abs32(got-float32(medians[i])) > 0.5 {
					t.Errorf("run %d's dot reads %.2f on the axis, its median is %v", i+1, got, medians[i])
				}
			}
			drawn := strings.Join(texts, "|")
			for _, want := range []string{"|" + c.first + "|", "|" + c.last + "|", "a run's median", "standard deviation"} {
				if !strings.Contains(drawn, want) {
					t.Errorf("the chart does not draw %q: %s", want, drawn)
				}
			}
		})
	}
}

// The History view says what to do before a series is picked, offers no export of nothing,
// and counts in the singular what is one: the demo's sweep-baseline has one outlier ("1
// outliers" was drawn).
func TestHistoryHeaderBeforeAndAfterASeries(t *testing.T) {
	u := newDemoApp(t)
	v := u.history
	ui(func() { u.showView(viewHistory) })
	if text := get(func() string { return drawnText(v.content) }); !strings.Contains(text, "Pick a series above") {
		t.Errorf("no hint before a series is picked: %s", text)
	}
	if get(func() bool { return !v.exports[0].Disabled() || !v.exports[1].Disabled() }) {
		t.Error("the exports are offered before a series is on screen")
	}
	eventually(t, "the series listed", func() bool { return len(v.series.Options) > 0 })
	ui(func() { v.series.SetSelected("sweep-baseline") })
	eventually(t, "the series explained", func() bool { return v.explained })
	if text := get(func() string { return drawnText(v.message) }); text != "20 runs, 0 change points, 1 outlier, 0 condition changes" {
		t.Errorf("the header reads %q", text)
	}
	if get(func() bool { return v.exports[0].Disabled() || v.exports[1].Disabled() }) {
		t.Error("the exports are not offered once the series is on screen")
	}
}
