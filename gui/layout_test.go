package gui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"benchlens/store"
)

// cutTexts are the texts of a table that are drawn past the right edge of the scroll the
// table is in (the analyst sees them cut or not at all), with where they end.
func cutTexts(table fyne.CanvasObject) []string {
	d := fyne.CurrentApp().Driver()
	right := d.AbsolutePositionForObject(table).X + table.Size().Width
	var cut []string
	for _, tx := range texts(table) {
		if end := d.AbsolutePositionForObject(tx).X + tx.MinSize().Width; end > right+1 {
			cut = append(cut, fmt.Sprintf("%q ends at %.0f, the table at %.0f", tx.Text, end, right))
		}
	}
	return cut
}

// At laptop sizes every column of the Stages and Conditions tables of the real H100 pair is
// drawn whole inside the pane (p-values, tails, the candidate's model), wrapping onto more
// lines; at 1024×700 what does not fit is reached through the table's own scroll bar.
func TestTablesReadableOnALaptop(t *testing.T) {
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	importH100(t, u)
	ui(func() { u.showView(viewCompare) })
	ui(func() { u.compare.setArm(true, "fp16") })
	ui(func() { u.compare.setArm(false, "fp8") })
	shownH100(t, u)
	for _, size := range []fyne.Size{{Width: 1366, Height: 768}, {Width: 1280, Height: 720}, {Width: 1024, Height: 700}, {Width: 1920, Height: 1080}} {
		t.Run(fmt.Sprintf("%.0fx%.0f", size.Width, size.Height), func(t *testing.T) {
			ui(func() { u.resize(size) })
			eventually(t, "the tables laid out at the window's width", func() bool {
				s := u.compare.stages.Objects[0]
				return s.Size().Width > 0 && s.Size().Width <= size.Width
			})
			ui(func() {
				stages, conditions := u.compare.stages.Objects[0], u.compare.conditions.Objects[0]
				text := drawnText(stages)
				for _, want := range []string{"p90 / p99", "test", "interval, per request", "p<0.001 n=100+100", "−18.7 % / −16.3 %", "−23.1 %", "[−24.0, −22.2] %"} {
					if !strings.Contains(text, want) {
						t.Errorf("the Stages table does not draw %q: %s", want, text)
					}
				}
				if !strings.Contains(drawnText(conditions), "neuralmagic/Meta-Llama-3.1-8B-Instruct-FP8") {
					t.Errorf("the Conditions table cuts the candidate's model: %s", drawnText(conditions))
				}
				for name, table := range map[string]fyne.CanvasObject{"Stages": stages, "Conditions": conditions} {
					cut := cutTexts(table)
					if len(cut) == 0 {
						continue
					}
					scroll := table.(*pageScroll)
					if size.Width >= 1280 || scroll.Content.Size().Width <= scroll.Size().Width {
						t.Errorf("the %s table cuts %d texts, e.g. %s", name, len(cut), cut[0])
					}
				}
			})
			shot(t, u, fmt.Sprintf("h100-%.0fx%.0f", size.Width, size.Height))
		})
	}
}

// The mouse wheel over a table scrolls the page, as it does beside it.
func TestWheelOverATableScrollsThePage(t *testing.T) {
	u := newDemoApp(t)
	ui(func() {
		u.resize(fyne.NewSize(1280, 720))
		u.showView(viewCompare)
	})
	ui(func() { u.compare.setArm(true, "baseline") })
	ui(func() { u.compare.setArm(false, "established") })
	shown(t, u, "baseline", "established")
	ui(func() {
		page := u.compare.scroll
		stages := u.compare.stages.Objects[0]
		d := fyne.CurrentApp().Driver()
		// Scroll the page until the table is under a point of the pane, then wheel over it.
		page.ScrollToOffset(fyne.NewPos(0, d.AbsolutePositionForObject(stages).Y-d.AbsolutePositionForObject(page).Y))
		at := d.AbsolutePositionForObject(stages).AddXY(40, 20)
		before := page.Offset.Y
		test.Scroll(u.win.Canvas(), at, 0, -60)
		if page.Offset.Y <= before {
			t.Errorf("the wheel over the Stages table left the page at %v (was %v)", page.Offset.Y, before)
		}
	})
}

// Ctrl+B hides the library sidebar and the tables take its width; again, it comes back. The
// button at the bottom left says what it does.
func TestLibrarySidebarCollapses(t *testing.T) {
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	importH100(t, u)
	ui(func() { u.resize(fyne.NewSize(1280, 720)) })
	width := get(func() float32 { return u.compare.content.Size().Width })
	if !strings.Contains(get(func() string { return windowText(u) }), "Hide the library") {
		t.Error("no button hides the library")
	}
	ctrlB := func() {
		pressShortcut(u.win, &desktop.CustomShortcut{KeyName: fyne.KeyB, Modifier: fyne.KeyModifierShortcutDefault})
	}
	ui(ctrlB)
	ui(func() {
		if text := windowText(u); strings.Contains(text, "Use as baseline") {
			t.Errorf("the sidebar is still drawn: %s", text)
		}
		if w := u.compare.content.Size().Width; w <= width+100 {
			t.Errorf("the views are %v wide without the sidebar, %v with it", w, width)
		}
	})
	ui(func() {
		for _, b := range under[*widget.Button](u.win.Content(), false) {
			if b.Text == "Library" {
				test.Tap(b)
				return
			}
		}
		t.Error("no button shows the hidden library")
	})
	if text := get(func() string { return windowText(u) }); !strings.Contains(text, "Use as baseline") {
		t.Errorf("the sidebar did not come back: %s", text)
	}
}

// The window opens at a size that fits the screen: on first start the most of it, and a
// size remembered from a larger screen clamped to this one.
func TestWindowFitsTheScreen(t *testing.T) {
	for _, c := range []struct {
		remembered, screen, want fyne.Size
	}{
		{fyne.Size{}, fyne.Size{}, defaultWindow},
		{fyne.Size{}, fyne.NewSize(1366, 768), fyne.NewSize(1350, 704)},
		{fyne.Size{}, fyne.NewSize(3840, 2160), largestWindow},
		{fyne.NewSize(1900, 1050), fyne.NewSize(1024, 700), fyne.NewSize(1008, 636)},
		{fyne.NewSize(1000, 600), fyne.NewSize(1920, 1080), fyne.NewSize(1000, 600)},
	} {
		if got := fitWindow(c.remembered, c.screen); got != c.want {
			t.Errorf("remembered %v on a %v screen: %v, want %v", c.remembered, c.screen, got, c.want)
		}
	}

	a := test.NewTempApp(t)
	a.Preferences().SetFloat("window.width", 1900)
	a.Preferences().SetFloat("window.height", 1050)
	st, err := store.Open(filepath.Join(t.TempDir(), "lib.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	w := test.NewTempWindow(t, nil)
	ui(func() { New(a, w, st, Options{Screen: fyne.NewSize(1024, 700)}) })
	if s := get(w.Canvas().Size); s.Width > 1024 || s.Height > 700 {
		t.Errorf("a window remembered at 1900×1050 opens at %v on a 1024×700 screen", s)
	}
}

// shownH100 waits for the comparison of the real H100 pair, request by request at both its
// points: under -race on a machine shared by several test runs it takes minutes.
func shownH100(t *testing.T, u *App) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for !get(func() bool { return u.compare.record != nil && u.compare.sels == [2]string{"fp16", "fp8"} }) {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting for fp16 vs fp8")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
