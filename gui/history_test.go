package gui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"benchlens/internal/nightly"
	"benchlens/library"
)

// historyApp is the app on a library holding the generated nightly series, on the History view
// of nightly-h100 at TPOT.
func historyApp(t *testing.T) *App {
	t.Helper()
	u := nightlyApp(t, func(dir string) error { return nightly.WriteOnly(dir, "nightly-h100", 0, nightly.Nights) })
	eventually(t, "the series listed", func() bool { return len(u.history.series.Options) >= 1 })
	ui(func() {
		u.showView(viewHistory)
		u.history.metric.SetSelectedIndex(1) // TPOT (decode)
		u.history.series.SetSelected("nightly-h100")
	})
	eventually(t, "the series drawn", func() bool { return u.history.explained && len(u.history.chart.Objects) > 0 })
	return u
}

// nightlyApp is the app on a library holding the nightly series write puts in a folder.
func nightlyApp(t *testing.T, write func(dir string) error) *App {
	t.Helper()
	dir := t.TempDir()
	if err := write(filepath.Join(dir, "nightly")); err != nil {
		t.Fatal(err)
	}
	u, _ := newTestApp(t, filepath.Join(dir, "lib.db"))
	if rep := library.Import(u.st, []string{filepath.Join(dir, "nightly")}, library.Options{}); len(rep.Errors) > 0 {
		t.Fatalf("import: %v", rep.Errors)
	}
	ui(u.libraryChanged)
	return u
}

// circles counts the dots drawn in the chart, by colour.
func circles(objs []fyne.CanvasObject) map[string]int {
	out := map[string]int{}
	for _, o := range objs {
		if c, ok := o.(*canvas.Circle); ok {
			switch c.FillColor {
			case historyOutlier:
				out["outlier"]++
			case historyDot:
				out["run"]++
			}
		}
	}
	return out
}

// The History view draws a night per dot, the lone outlier in its own colour, the step
// labelled with its change and the condition changes as ticks naming what changed; a step
// clicked shows its evidence, opens the comparison of its windows, and is rejected there.
func TestHistoryViewDrawsTheSeries(t *testing.T) {
	u := historyApp(t)
	v := u.history
	chart := get(func() string { return drawnText(v.chart) })
	for _, want := range []string{"TPOT (decode) (ms)", "TPOT +10.4 %", "driver_version", "engine_version, resolved_backend", "2026-11-01"} {
		if !strings.Contains(chart, want) {
			t.Errorf("the chart does not draw %q: %s", want, chart)
		}
	}
	if strings.Contains(chart, "TTFT") {
		t.Errorf("the TPOT chart marks the TTFT step: %s", chart)
	}
	if dots := get(func() map[string]int { return circles(v.chart.Objects) }); dots["run"] != nightly.Nights-1 || dots["outlier"] != 1 {
		t.Errorf("dots %v, want %d runs and 1 outlier", dots, nightly.Nights-1)
	}
	var step *widget.Button
	ui(func() {
		for _, o := range v.steps.Objects {
			if b, ok := o.(*widget.Button); ok && strings.Contains(b.Text, "TPOT +10.4 %") {
				step = b
			}
		}
	})
	if step == nil {
		t.Fatalf("no step listed: %s", get(func() string { return drawnText(v.steps) }))
	}
	ui(func() { test.Tap(step) })
	if d := get(func() string { return drawnText(v.content) }); !strings.Contains(d, "FLASH_ATTN → TRITON_ATTN") || !strings.Contains(d, "vllm 0.14.0") {
		t.Errorf("the step's evidence is not shown: %s", d)
	}

	ui(func() {
		v.note.SetText("the CI image lacked FA3")
		test.Tap(v.reject)
	})
	eventually(t, "the step rejected", func() bool {
		cp, ok := v.current()
		return ok && cp.Triage != nil && cp.Triage.State == "rejected"
	})
	if chart := get(func() string { return drawnText(v.chart) }); !strings.Contains(chart, "TPOT +10.4 % (rejected)") {
		t.Errorf("the rejected step is not drawn so: %s", chart)
	}

	ui(func() { test.Tap(v.open) })
	cp := get(func() struct{ b, c string } {
		return struct{ b, c string }{u.compare.baseline.chosen, u.compare.candidate.chosen}
	})
	if cp.b != "ids:24,25,26,27,28" || cp.c != "ids:29,30,31,32,33" || get(func() int { return u.tabs.SelectedIndex() }) != viewCompare {
		t.Errorf("compare its windows: baseline %q candidate %q", cp.b, cp.c)
	}
}

// The History view exports the series as a workbook and as Markdown.
func TestHistoryViewExports(t *testing.T) {
	u := historyApp(t)
	dir := t.TempDir()
	for _, format := range []string{"xlsx", "md"} {
		path := filepath.Join(dir, "history."+format)
		ui(func() { u.history.export(format, path) })
		eventually(t, "the "+format+" export", func() bool { return strings.Contains(u.history.message.Text, path) })
		if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", path, err)
		}
	}
}

// An SLO set in the Settings view gives the series its attainment and goodput: listed as
// metrics once the evidence is read, the attainment's step drawn where TPOT stepped and the
// slow night its outlier.
func TestHistoryViewSLOMetrics(t *testing.T) {
	u := historyApp(t)
	v := u.history
	ui(func() { u.settings.slo.SetText("tpot<=12.6") })
	eventually(t, "the SLO metrics listed", func() bool {
		return v.explained && slices.Contains(v.metric.Options, "SLO attainment")
	})
	ui(func() { v.metric.SetSelected("SLO attainment") })
	chart := get(func() string { return drawnText(v.chart) })
	if !strings.Contains(chart, "SLO attainment (%)") || !strings.Contains(chart, "SLO attainment −100.0 %") {
		t.Errorf("the attainment chart: %s", chart)
	}
	if dots := get(func() map[string]int { return circles(v.chart.Objects) }); dots["outlier"] != 1 {
		t.Errorf("dots %v, want the slow night as the outlier", dots)
	}
}
