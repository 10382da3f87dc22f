package gui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2/canvas"

	"benchlens/internal/goldenfile"
	"benchlens/internal/nightly"
)

// The History view draws a series, opened after another, as the golden file holds it: each
// dot, line and text of its chart where it is drawn, its steps and its status. The series'
// runs are read as a listing reads them (store.SeriesRuns): what is drawn does not depend on
// how.
func TestHistoryDrawsTheSeriesAsTheGoldenFile(t *testing.T) {
	u := nightlyApp(t, func(dir string) error { return nightly.Write(dir, 0, nightly.Nights) })
	eventually(t, "both series listed", func() bool { return len(u.history.series.Options) >= 2 })
	v := u.history
	ui(func() { u.showView(viewHistory) })
	for _, name := range []string{"steady-a100", "nightly-h100"} {
		ui(func() { v.series.SetSelected(name) })
		eventually(t, name+" drawn", func() bool {
			return v.explained && v.rep.Series == name && len(v.chart.Objects) > 0
		})
	}
	got := get(func() string {
		var b strings.Builder
		fmt.Fprintf(&b, "status: %s\nsteps: %s\n", drawnText(v.message), drawnText(v.steps))
		for _, c := range under[*canvas.Circle](v.chart, true) {
			fmt.Fprintf(&b, "dot %.1f,%.1f %v\n", c.Position().X, c.Position().Y, c.FillColor)
		}
		for _, l := range under[*canvas.Line](v.chart, true) {
			fmt.Fprintf(&b, "line %.1f,%.1f %.1f,%.1f\n", l.Position1.X, l.Position1.Y, l.Position2.X, l.Position2.Y)
		}
		for _, t := range texts(v.chart) {
			fmt.Fprintf(&b, "text %.1f,%.1f %q\n", t.Position().X, t.Position().Y, t.Text)
		}
		return b.String()
	})
	goldenfile.Check(t, "testdata/history_drawn.golden.txt", []byte(got))
}
