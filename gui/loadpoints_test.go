package gui

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"benchlens/analysis/chart"
)

// A sweep pair shows its load points panel, one row per point with its verdict, and its load
// curves; arms of one point each hide both (no blank charts left in the grid).
func TestComparePanelShowsLoadPoints(t *testing.T) {
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	dropAndConfirm(t, u, "../demo/samples/sweep-baseline", "../demo/samples/sweep-candidate", "../demo/samples/baseline", "../demo/samples/established")
	eventually(t, "the import", func() bool { return !u.importer.busy && u.library.count() == 50 })
	ui(func() {
		u.compare.setArm(true, "sweep-baseline")
		u.compare.setArm(false, "sweep-candidate")
	})
	p := u.compare.points
	// showing is true while the compare view shows the arms "base/cand"; call it under the UI lock.
	showing := func(arms string) bool {
		r := u.compare.record
		return r != nil && r.Arms.Baseline.Label+"/"+r.Arms.Candidate.Label == arms
	}
	var holds string
	var lines []string
	eventually(t, "the sweep comparison", func() bool {
		holds, lines = p.holds.Text, nil
		if len(p.table.Objects) == 1 {
			for _, o := range p.table.Objects[0].(*fyne.Container).Objects {
				lines = append(lines, o.(*widget.Label).Text)
			}
		}
		return showing("sweep-baseline/sweep-candidate") && holds != "" && len(lines) == 4
	})
	if !strings.Contains(holds, "established at concurrency 1-16; offset at 64") {
		t.Fatalf("holds %q", holds)
	}
	if !get(u.compare.charts["load_deltas"].Visible) {
		t.Error("the sweep's per-point deltas chart is hidden")
	}
	text := strings.Join(lines, "\n")
	for _, want := range []string{"concurrency 1 · 1024→64 tok · random (5+5): TTFT ~ −3.4 %, TPOT −9.8 %", "concurrency 64 · 1024→64 tok · random (5+5): ", "→ offset (offset_by_overhead)"} {
		if !strings.Contains(text, want) {
			t.Errorf("table lacks %q: %s", want, text)
		}
	}
	ui(func() { u.showView(viewCompare) })
	shot(t, u, "compare-sweep")

	ui(func() {
		u.compare.setArm(true, "baseline")
		u.compare.setArm(false, "established")
	})
	eventually(t, "the one-point comparison", func() bool {
		return showing("baseline/established") && !p.content.Visible()
	})
	ui(func() {
		for k, c := range u.compare.charts {
			if load := strings.HasPrefix(k, "load_") || strings.HasPrefix(k, "slo_"); c.Visible() == load { // no sweep, no SLO
				t.Errorf("one point per arm: chart %s shown %v", k, c.Visible())
			}
		}
	})
}

// chartSVG is what a chart of the compare view draws, as SVG text ("" when hidden).
func chartSVG(t *testing.T, u *App, key string) string {
	t.Helper()
	c := u.compare.charts[key]
	if !c.Visible() || c.plot == nil {
		return ""
	}
	b, err := chart.SVG(c.plot, 640, 400)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The real H100 FP16/FP8 pair (concurrency 1 and 64, one run each) is shown point by point:
// the Stages table has each point's rows with the changes `benchlens compare` prints, the
// pooled CDFs say they pool and give no median, and picking a point shows its own stages and
// distributions (FP16's TPOT median 20.9 ms at c=64, not the pooled 12.6 ms).
func TestSweepShownPointByPoint(t *testing.T) {
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	importH100(t, u)
	ui(func() { u.showView(viewCompare) })
	// The import's roles pick the arms: the pair is compared once (each comparison of it
	// bootstraps every point's stages request by request).
	shown(t, u, "fp16", "fp8")
	var c1, c64 string // the points' labels, as the record names them
	ui(func() {
		for _, p := range u.compare.record.LoadPoints {
			switch p.MaxConcurrency {
			case 1:
				c1 = p.Label
			case 64:
				c64 = p.Label
			}
		}
	})
	if !strings.HasPrefix(c1, "concurrency 1, rate 10 req/s") || !strings.HasPrefix(c64, "concurrency 64, rate 10 req/s") {
		t.Fatalf("load points %q, %q", c1, c64)
	}
	var stages string
	eventually(t, "both points' stage rows", func() bool {
		stages = drawnText(u.compare.stages)
		return strings.Contains(stages, c64)
	})
	i1, i64 := strings.Index(stages, c1), strings.Index(stages, c64)
	if i1 < 0 || i64 < i1 {
		t.Fatalf("stage rows: %s", stages)
	}
	at1, at64 := stages[i1:i64], stages[i64:]
	for _, want := range []string{"TTFT (prefill)", "−23.1 %", "TPOT (decode)", "−30.0 %", "ITL (decode)", "−29.9 %", "~ +41.6 %"} {
		if !strings.Contains(at1, want) {
			t.Errorf("c=1 rows lack %q: %s", want, at1)
		}
	}
	for _, want := range []string{"−15.8 %", "−19.6 %", "−15.6 %", "~ +17.3 %"} {
		if !strings.Contains(at64, want) {
			t.Errorf("c=64 rows lack %q: %s", want, at64)
		}
	}
	ui(func() {
		svg := chartSVG(t, u, "tpot_cdf")
		if !strings.Contains(svg, "pooled over 2 load points") || strings.Contains(svg, "median") {
			t.Errorf("the pooled TPOT CDF does not say it pools, or gives a pooled median")
		}
		if text := windowText(u); strings.Contains(text, "median 12.6") {
			t.Errorf("a pooled median is drawn: %s", text)
		}
	})

	ui(func() { u.compare.point.SetSelected(c64) })
	eventually(t, "the c=64 distributions", func() bool {
		return strings.Contains(chartSVG(t, u, "tpot_cdf"), "fp16: median 20.9 ms")
	})
	stages = get(func() string { return drawnText(u.compare.stages) })
	if !strings.Contains(stages, "−19.6 %") || strings.Contains(stages, "−30.0 %") {
		t.Errorf("the c=64 stage table: %s", stages)
	}
	if get(func() string { return chartSVG(t, u, "stage_deltas") }) == "" {
		t.Error("no stage chart at c=64")
	}
	ui(func() { u.win.Resize(fyne.NewSize(1366, 768)) })
	shot(t, u, "compare-h100-c64")
}
