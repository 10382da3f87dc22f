package gui

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"benchlens/analysis/chart"
	"benchlens/analysis/report"
	"benchlens/model"
	"benchlens/store"
)

// compareText is what the Compare view draws.
func compareText(u *App) string { return drawnText(u.compare.content) }

// A relabel after a comparison compares again: the Stages table counts the runs the arm
// holds now, not the five it held (and a library switch leaves nothing of the old pair).
func TestRelabelAfterCompareRecomputes(t *testing.T) {
	u := newDemoApp(t)
	ui(func() { u.showView(viewCompare) })
	ui(func() { u.compare.setArm(true, "baseline") })
	ui(func() { u.compare.setArm(false, "established") })
	shown(t, u, "baseline", "established")
	eventually(t, "the stages of 5+5 runs drawn", func() bool { return strings.Contains(compareText(u), "n=5+5") })

	// What the sidebar's Relabel does once its dialog is confirmed.
	ui(func() {
		if err := u.st.Relabel([]int64{19, 20}, "established-late", "candidate"); err != nil {
			t.Fatal(err)
		}
		u.libraryChanged()
	})
	eventually(t, "the comparison of the 3 runs left drawn", func() bool {
		text := compareText(u)
		return strings.Contains(text, "n=5+3") && !strings.Contains(text, "n=5+5")
	})

	other, err := store.Open(filepath.Join(t.TempDir(), "other.db"))
	if err != nil {
		t.Fatal(err)
	}
	if !get(func() bool { return u.switchLibrary(other) }) {
		t.Fatal("switch refused")
	}
	if text := get(func() string { return compareText(u) }); strings.Contains(text, "n=5+3") || strings.Contains(text, "gain established") {
		t.Errorf("the old library's comparison is still drawn: %s", text)
	}
}

// Choosing one arm compares what both fields say; a field typed into but not committed says
// so; a new comparison is shown from its headline.
func TestBothArmFieldsCompared(t *testing.T) {
	u := newDemoApp(t)
	ui(func() { u.showView(viewCompare) })
	ui(func() { u.compare.setArm(true, "baseline") })
	ui(func() { u.compare.setArm(false, "established") })
	shown(t, u, "baseline", "established")

	ui(func() {
		u.compare.baseline.entry.SetText("")
		test.Type(u.compare.baseline.entry, "drift")
	})
	if text := get(func() string { return compareText(u) }); !strings.Contains(text, "Not compared yet") {
		t.Errorf("a typed, uncommitted field is not marked: %s", text)
	}
	ui(func() {
		u.compare.scroll.ScrollToBottom()
		test.Tap(u.compare.candidate.toggle)
		tapLabel(t, u.compare.candidate, "fallback")
	})
	shown(t, u, "drift", "fallback")
	text := get(func() string { return windowText(u) })
	if !strings.Contains(text, "Compared drift (5 runs) with fallback (5 runs)") {
		t.Errorf("the status line does not name drift vs fallback: %s", text)
	}
	if strings.Contains(text, "Not compared yet") {
		t.Error("a committed field is still marked")
	}
	// The headline is inside the scrolled area's view, not above it.
	ui(func() {
		d := fyne.CurrentApp().Driver()
		head, box := d.AbsolutePositionForObject(u.compare.verdict.content), d.AbsolutePositionForObject(u.compare.scroll)
		if head.Y < box.Y || head.Y > box.Y+u.compare.scroll.Size().Height {
			t.Errorf("the headline is drawn at y=%v, the sections show %v to %v", head.Y, box.Y, box.Y+u.compare.scroll.Size().Height)
		}
	})
}

// Ctrl+3 after a comparison shows that comparison, offering to save it, never another saved
// one; its picker names what it shows, also after the app is started again.
func TestVerdictViewShowsTheComparisonOnScreen(t *testing.T) {
	u := newDemoApp(t)
	ui(func() { u.compare.setArm(true, "baseline") })
	ui(func() { u.compare.setArm(false, "offset") })
	shown(t, u, "baseline", "offset")
	ui(func() {
		if _, err := u.compare.saveOnce(); err != nil {
			t.Fatal(err)
		}
	})
	ui(func() { u.compare.setArm(false, "established") })
	shown(t, u, "baseline", "established")
	ctrl := func(k fyne.KeyName) {
		pressShortcut(u.win, &desktop.CustomShortcut{KeyName: k, Modifier: fyne.KeyModifierShortcutDefault})
	}
	ui(func() { ctrl(fyne.Key3) })
	text := get(func() string { return drawnText(u.verdict.content) })
	for _, want := range []string{"Unsaved: baseline vs established", "gain established", "Save this comparison to annotate it"} {
		if !strings.Contains(text, want) {
			t.Errorf("the verdict view after comparing baseline with established lacks %q: %s", want, text)
		}
	}
	if strings.Contains(text, "baseline vs offset") {
		t.Errorf("the verdict view shows the saved baseline vs offset: %s", text)
	}

	ui(func() { test.Tap(u.verdict.saveHere) })
	ui(func() { u.verdict.override.SetSelected("zero gain") })
	ui(func() { u.verdict.reason.SetText("the gain is inside the noise of these runs") })
	ui(func() { u.verdict.flush() })
	text = get(func() string { return drawnText(u.verdict.content) })
	if !strings.Contains(text, "#2 baseline vs established (zero gain") || !strings.Contains(text, "zero gain analyst's override of the proposed “gain established”") {
		t.Errorf("after saving and overriding: %s", text)
	}

	// Started again on the same library: the last pair is compared, the verdict view shows its
	// saved comparison, and the picker names it (with the analyst's status).
	a := fyne.CurrentApp()
	w := test.NewTempWindow(t, nil)
	var again *App
	ui(func() {
		again = New(a, w, u.st, Options{})
		w.Resize(fyne.NewSize(1280, 820))
	})
	shown(t, again, "baseline", "established")
	eventually(t, "the saved comparison named in the picker", func() bool {
		again.showView(viewVerdict)
		text = drawnText(again.verdict.content)
		return strings.Contains(text, "#2 baseline vs established (zero gain")
	})
	if !strings.Contains(text, "the gain is inside the noise") {
		t.Errorf("after a restart the verdict view shows: %s", text)
	}
}

// hover moves the mouse over a chart at the pixel of data point (x, y) and returns what the
// chart then draws.
func hover(t *testing.T, c *chartView, x, y float64) string {
	t.Helper()
	s := c.Size()
	px, py, ok := chart.Pixel(c.plot, int(s.Width), int(s.Height), x, y)
	if !ok {
		t.Fatalf("(%v, %v) is outside the chart's data area", x, y)
	}
	c.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(float32(px), float32(py))}})
	return drawnText(c)
}

// Hovering a bar reads out the bar's change, interval and p, not a fractional category index;
// hovering a CDF marks each curve's point under the pointer; no readout covers a title.
func TestHoverReadsTheThingUnderThePointer(t *testing.T) {
	u := newDemoApp(t)
	ui(func() { u.showView(viewCompare) })
	ui(func() { u.compare.setArm(true, "baseline") })
	ui(func() { u.compare.setArm(false, "established") })
	shown(t, u, "baseline", "established")
	bars := u.compare.charts["stage_deltas"]
	eventually(t, "the stage chart laid out", func() bool { return bars.plot != nil && bars.Size().Width > 100 })
	ui(func() {
		tpot := u.compare.record.Perf[model.TPOT]
		want := report.BarText("TPOT", tpot) // "TPOT −9.1 % [−9.9, −8.3], p=0.00794"
		if !strings.Contains(want, "[") || !strings.Contains(want, "p=") {
			t.Fatalf("the TPOT change has no interval or p: %q", want)
		}
		if text := hover(t, bars, 1, tpot.Delta.F()/2); !strings.Contains(text, want) {
			t.Errorf("over the TPOT bar the chart draws %q, want …%s…", text, want)
		}
		if strings.Contains(drawnText(bars), "stage (latencies: lower is better): 1.") {
			t.Error("the readout gives the category axis' fraction")
		}
	})

	cdf := u.compare.charts["tpot_cdf"]
	eventually(t, "the TPOT CDF laid out", func() bool { return cdf.plot != nil && cdf.Size().Width > 100 })
	ui(func() {
		p := cdf.plot
		x := p.X.Min + 0.5*(p.X.Max-p.X.Min)
		text := hover(t, cdf, x, 0.97) // near the top of the data area, under the title
		if !strings.Contains(text, " · baseline p") || !strings.Contains(text, " · established p") {
			t.Errorf("CDF readout %q", text)
		}
		s := cdf.Size()
		reads := u.compare.charts["tpot_cdf"].read.Series(x)
		shown := 0
		for i, m := range cdf.marks {
			if !m.Visible() {
				continue
			}
			shown++
			wx, wy, _ := chart.Pixel(p, int(s.Width), int(s.Height), x, reads[i].Y)
			if c := m.Position().AddXY(markRadius, markRadius); abs32(c.X-float32(wx)) > 1 || abs32(c.Y-float32(wy)) > 1 {
				t.Errorf("%s's mark at %v, its point at (%v, %v)", reads[i].Label, c, wx, wy)
			}
		}
		if shown != 2 {
			t.Errorf("%d curves marked, want both arms'", shown)
		}
		top, _ := chart.DataTop(p, int(s.Width), int(s.Height))
		if y := cdf.readBox.Position().Y; y < float32(top) {
			t.Errorf("the readout at y=%v covers the title (the data area starts at %v)", y, top)
		}
	})
}
