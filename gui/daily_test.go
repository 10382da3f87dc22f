package gui

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"benchlens/library"
	"benchlens/store"
)

// newDemoApp builds the app on a library holding the sample bundles.
func newDemoApp(t *testing.T) *App {
	t.Helper()
	db := filepath.Join(t.TempDir(), "lib.db")
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	if rep := library.LoadDemo(st); len(rep.Errors) != 0 {
		t.Fatal(rep.Errors)
	}
	st.Close()
	u, _ := newTestApp(t, db)
	eventually(t, "the library", func() bool { return u.library.count() == 82 }) // the demo arms, offset-ops included
	return u
}

// shown waits until the compare view shows the comparison of base with cand.
func shown(t *testing.T, u *App, base, cand string) {
	t.Helper()
	eventually(t, base+" vs "+cand, func() bool {
		return u.compare.record != nil && u.compare.sels == [2]string{base, cand}
	})
}

// ui runs a test's action as the app's UI callbacks run: one at a time (see uiMu). Tests act
// on the window and read its state only through ui; never wait inside it for work that hands
// its result back through onUI (uiMu is not re-entrant).
func ui(fn func()) {
	uiMu.Lock()
	defer uiMu.Unlock()
	fn()
}

// get reads a value of the UI through ui.
func get[T any](fn func() T) T {
	var v T
	ui(func() { v = fn() })
	return v
}

// failed waits until the compare view shows an error naming sel.
func failed(t *testing.T, u *App, sel string) {
	t.Helper()
	eventually(t, "the error about "+sel, func() bool {
		return u.compare.verdict.Importance == widget.DangerImportance && strings.Contains(u.compare.verdict.Text(), sel) &&
			!strings.HasPrefix(u.compare.verdict.Text(), "Comparing")
	})
}

func pressEnter(e *widget.Entry) { e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) }

// Typing in a picker only filters its list; Enter or a tap on the list compares. A long soak
// of picker use keeps the window's canvas, focus and the pickers working (the SelectEntry
// drop-down it replaces crashed on a nil canvas).
func TestArmPickerSoak(t *testing.T) {
	u := newDemoApp(t)
	ui(func() { u.showView(viewCompare) })
	ui(func() { u.compare.setArm(true, "baseline") })
	ui(func() { u.compare.setArm(false, "established") })
	shown(t, u, "baseline", "established")
	c := u.compare.candidate
	arms := []string{"fallback", "established", "offset", "zero", "drift"}
	for i := range 60 {
		arm := arms[i%len(arms)]
		var gen, typedGen, offered int
		var listed bool
		ui(func() {
			gen = u.compare.gen
			c.entry.SetText("")
			test.Type(c.entry, arm[:3])
			typedGen, listed, offered = u.compare.gen, c.listBox.Visible(), len(c.matches)
		})
		if typedGen != gen {
			t.Fatalf("typing %q started a comparison", arm[:3])
		}
		if !listed || offered == 0 {
			t.Fatalf("typing %q shows no labels", arm[:3])
		}
		ui(func() {
			switch i % 3 {
			case 0: // Enter on the typed prefix takes the first match
				pressEnter(c.entry)
			case 1: // a tap on the list
				tapLabel(t, c, arm)
			case 2: // the drop-down button, then the list
				test.Tap(c.toggle)
				tapLabel(t, c, arm)
			}
		})
		chosen := get(func() string { return c.chosen })
		shown(t, u, "baseline", chosen)
		var open, focused bool
		ui(func() {
			open = c.listBox.Visible()
			u.win.Canvas().Focus(c.entry)
			focused = u.win.Canvas() != nil && u.win.Canvas().Focused() == c.entry
		})
		if open {
			t.Fatal("the list stays open after a choice")
		}
		if i%3 != 0 && chosen != arm {
			t.Fatalf("chose %q, want %q", chosen, arm)
		}
		if !focused {
			t.Fatal("the picker no longer takes focus")
		}
	}
	eventually(t, "the last comparison", func() bool { return u.compare.record != nil })
	if v := get(func() string { return u.compare.verdict.Text() }); strings.Contains(v, "no run") {
		t.Errorf("verdict after the soak: %q", v)
	}
}

func tapLabel(t *testing.T, p *armPicker, label string) {
	t.Helper()
	for j, m := range p.matches {
		if m == label {
			p.list.Select(j)
			return
		}
	}
	t.Fatalf("%q not offered: %v", label, p.matches)
}

// A new pair clears the previous pair's evidence at once, before its own is ready; an
// unknown arm shows its error with nothing of the previous pair under it.
func TestCompareClearsStaleResults(t *testing.T) {
	u := newDemoApp(t)
	ui(func() { u.compare.setArm(true, "baseline") })
	ui(func() { u.compare.setArm(false, "established") })
	shown(t, u, "baseline", "established")
	if get(func() bool { return len(u.compare.checklist.Objects) == 0 || u.compare.save.Disabled() }) {
		t.Fatal("no evidence shown")
	}
	ui(func() { // the answer waits for the lock: this is the view while comparing
		u.compare.setArm(false, "fallback")
		if len(u.compare.checklist.Objects) != 0 || len(u.compare.stages.Objects) != 0 || !u.compare.save.Disabled() || u.compare.causes.Text != "" {
			t.Error("the previous pair's evidence stays while comparing")
		}
		if !strings.Contains(u.compare.verdict.Text(), "fallback") {
			t.Errorf("while comparing: %q", u.compare.verdict.Text())
		}
	})
	shown(t, u, "baseline", "fallback")
	ui(func() {
		u.compare.candidate.entry.SetText("no-such-arm")
		pressEnter(u.compare.candidate.entry)
	})
	failed(t, u, "no-such-arm")
	ui(func() {
		if u.compare.record != nil || len(u.compare.checklist.Objects) != 0 || u.compare.verdict.Importance != widget.DangerImportance {
			t.Errorf("unknown arm: %q, record %v", u.compare.verdict.Text(), u.compare.record != nil)
		}
	})
}

// Every view fits 1024×700, and long messages (errors, paths, titles) never grow the
// window's minimum size.
func TestFitsSmallWindow(t *testing.T) {
	u := newDemoApp(t)
	ui(func() { u.compare.setArm(true, "baseline") })
	ui(func() { u.compare.setArm(false, "fallback") })
	shown(t, u, "baseline", "fallback")
	long := strings.Repeat("a very long error message about /some/deep/path/of/a/bundle ", 12)
	ui(func() {
		u.setStatus(long)
		u.compare.causes.SetText(long)
		u.verdict.problem.SetText(long)
		u.verdict.causes.SetText(long)
		u.settings.problem.SetText(long)
		u.settings.libPath.SetText(long)
	})
	ui(func() {
		u.run.show(u.library.rows[0].ID)
	})
	eventually(t, "the run", func() bool { return strings.Contains(drawnText(u.run.summary), "TTFT") })
	ui(func() {
		u.run.title.SetText(long)
		u.run.backend.SetText(long)
	})
	ui(func() {
		for view := range 4 {
			u.showView(view)
			min := u.win.Content().MinSize()
			if min.Width > 1024 || min.Height > 700-30 { // 30: the menu bar
				t.Errorf("view %d: minimum size %v does not fit 1024×700", view, min)
			}
		}
		u.compare.clear(long, widget.DangerImportance)
		if min := u.win.Content().MinSize(); min.Width > 1024 {
			t.Errorf("an error grew the minimum width to %v", min.Width)
		}
		u.win.Resize(fyne.NewSize(1024, 700))
	})
	shot(t, u, "compare-1024")
}

// An empty library shows what to do instead of samples: no run is added to it, and "Open the
// sample library" switches to a library of its own holding the samples.
func TestEmptyLibraryOffersSamples(t *testing.T) {
	dir := t.TempDir()
	a := test.NewTempApp(t)
	w := test.NewTempWindow(t, nil)
	st, err := store.Open(filepath.Join(dir, "lab.db"))
	if err != nil {
		t.Fatal(err)
	}
	samples := filepath.Join(dir, "samples.db")
	var u *App
	ui(func() {
		u = New(a, w, st, Options{SampleLibrary: samples})
		w.Resize(fyne.NewSize(1024, 700))
	})
	t.Cleanup(func() { get(u.Store).Close() })
	eventually(t, "the empty state", func() bool { return u.empty.Visible() && !u.tabs.Visible() })
	shot(t, u, "empty")
	if runs, _ := st.Runs(); len(runs) != 0 {
		t.Fatalf("the app put %d runs into an empty library", len(runs))
	}
	ui(u.openSampleLibrary)
	eventually(t, "the samples", func() bool { return !u.importer.busy && u.library.count() == 82 })
	eventually(t, "the views", func() bool { return u.tabs.Visible() && !u.empty.Visible() })
	if p := get(u.Store).Path(); p != samples {
		t.Errorf("open library %q", p)
	}
	lab, err := store.Open(filepath.Join(dir, "lab.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer lab.Close()
	if runs, _ := lab.Runs(); len(runs) != 0 {
		t.Errorf("samples entered the lab library: %d runs", len(runs))
	}
}

// pressShortcut delivers a key chord as fyne's desktop driver does: the main menu's
// shortcuts first, then the focused widget, then the canvas.
func pressShortcut(w fyne.Window, sh *desktop.CustomShortcut) {
	var find func(items []*fyne.MenuItem) bool
	find = func(items []*fyne.MenuItem) bool {
		for _, it := range items {
			if it.Shortcut != nil && it.Shortcut.ShortcutName() == sh.ShortcutName() && it.Action != nil {
				it.Action()
				return true
			}
			if it.ChildMenu != nil && find(it.ChildMenu.Items) {
				return true
			}
		}
		return false
	}
	if m := w.MainMenu(); m != nil {
		for _, menu := range m.Items {
			if find(menu.Items) {
				return
			}
		}
	}
	if f, ok := w.Canvas().Focused().(fyne.Shortcutable); ok {
		f.TypedShortcut(sh)
		return
	}
	w.Canvas().(fyne.Shortcutable).TypedShortcut(sh)
}

// Ctrl+1 … Ctrl+4 switch views while a text field has focus.
func TestViewShortcutsWithFocusedField(t *testing.T) {
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	for _, e := range []*widget.Entry{u.library.search, u.compare.candidate.entry, u.settings.alpha} {
		for i, key := range []fyne.KeyName{fyne.Key1, fyne.Key2, fyne.Key3, fyne.Key4, fyne.Key2} {
			view := get(func() int {
				u.win.Canvas().Focus(e)
				pressShortcut(u.win, &desktop.CustomShortcut{KeyName: key, Modifier: fyne.KeyModifierShortcutDefault})
				return u.tabs.SelectedIndex()
			})
			if want := []int{0, 1, 2, 3, 1}[i]; view != want {
				t.Errorf("Ctrl+%s with a field focused: view %d, want %d", key, view, want)
			}
		}
	}
}

// Ctrl+E in Compare exports the comparison on screen, saving it once.
func TestExportFromCompareSavesWhatIsOnScreen(t *testing.T) {
	u := newDemoApp(t)
	ui(func() { u.compare.setArm(true, "baseline") })
	ui(func() { u.compare.setArm(false, "offset") })
	shown(t, u, "baseline", "offset")
	ui(func() {
		u.showView(viewCompare)
		for range 2 {
			pressShortcut(u.win, &desktop.CustomShortcut{KeyName: fyne.KeyE, Modifier: fyne.KeyModifierShortcutDefault})
		}
	})
	list, err := u.st.Comparisons(false)
	if err != nil || len(list) != 1 {
		t.Fatalf("%d comparisons saved, %v", len(list), err)
	}
	if c := list[0]; c.Baseline != "baseline" || c.Candidate != "offset" || c.ID != get(func() int64 { return u.compare.savedID }) {
		t.Errorf("exported %+v", c)
	}
}

// Runs are one click below their arm and tell each other apart; arms sort by name or date;
// the status line counts what the filter shows; the Run view gives percentiles plainly.
func TestReachingARun(t *testing.T) {
	u := newDemoApp(t)
	runs := get(func() []string { return u.library.children["arm:baseline"] })
	if len(runs) != 5 || !strings.HasPrefix(runs[0], runPrefix) {
		t.Fatalf("baseline arm lists %v, want its 5 runs", runs)
	}
	text := get(func() string { return u.library.nodeText(runs[0]) })
	if !strings.HasPrefix(text, "#") || !strings.Contains(text, "FLASH") || !strings.Contains(text, "conc. 16") {
		t.Errorf("run row %q lacks id, load point or backend", text)
	}
	if got := get(func() string { u.library.search.SetText("fallback"); return u.status.Text }); !strings.HasPrefix(got, "5 of 82 runs shown") {
		t.Errorf("status with a filter: %q", got)
	}
	got := get(func() []string {
		u.library.search.SetText("")
		u.library.order.SetSelectedIndex(1)
		return u.library.children[""]
	})
	if len(got) != 11 { // the demo's nine arms and its two sweeps
		t.Errorf("arms newest first: %v", got)
	}
	ui(func() { u.library.onSelected(runs[0]) })
	ttft := regexp.MustCompile(`TTFT p50 [0-9.]+ ms · p99 [0-9.]+ ms`)
	eventually(t, "the run's TTFT percentiles drawn", func() bool { return ttft.MatchString(drawnText(u.run.content)) })
	if get(u.tabs.SelectedIndex) != viewRun {
		t.Error("one click on a run does not show the Run view")
	}
}

// The conditions are a side-by-side diff; the headline gives the size of the change; causes
// are words with their codes.
func TestConditionsDiffAndHeadline(t *testing.T) {
	u := newDemoApp(t)
	ui(func() { u.compare.setArm(true, "baseline") })
	ui(func() { u.compare.setArm(false, "drift") })
	shown(t, u, "baseline", "drift")
	differs, source := map[string]bool{}, map[string]string{}
	var headline, causes string
	ui(func() {
		cells := u.compare.conditions.Objects[0].(*pageScroll).Content.(*fyne.Container).Objects
		for i := 5; i+4 < len(cells); i += 5 { // mark, field, baseline, candidate, source
			mark := cells[i].(*fyne.Container).Objects[0].(*canvas.Text).Text
			name := cells[i+1].(*widget.Label).Text
			if strings.Contains(mark, "differs") {
				differs[name] = true
			}
			source[name] = cells[i+4].(*widget.Label).Text
		}
		headline, causes = u.compare.verdict.Text(), u.compare.causes.Text
	})
	if !differs["workload.seed"] || differs["hardware_sku"] || differs["stack.driver_version"] {
		t.Errorf("differing conditions: %v", differs)
	}
	if source["stack.driver_version"] != "bundle.yaml" { // each value's source file
		t.Errorf("sources %v", source)
	}
	// The drift arm ran 512-token prompts, the baseline 1024: no load point in common, so no
	// stage is compared (METHOD.md rule 12) and the headline gives no size.
	if !strings.Contains(headline, "gain not established") || strings.Contains(headline, "%, p") {
		t.Errorf("headline %q", headline)
	}
	if !strings.Contains(causes, "load drifted (load_drift)") {
		t.Errorf("causes %q", causes)
	}
}

// Hovering a compare CDF reads out each arm's quantile at the x under the mouse, on any of
// the x axes.
func TestChartReadout(t *testing.T) {
	u := newDemoApp(t)
	ui(func() { u.compare.setArm(true, "baseline") })
	ui(func() { u.compare.setArm(false, "established") })
	shown(t, u, "baseline", "established")
	c := u.compare.charts["tpot_cdf"]
	eventually(t, "the chart laid out", func() bool { return c.Size().Width > 100 })
	ui(func() {
		s := c.Size()
		c.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(s.Width*0.55, s.Height*0.5)}})
		if c.readBox.Size().Width < 50 || !c.readBox.Visible() || !strings.HasPrefix(c.readout.Text, "time per output token (ms) ") ||
			!strings.Contains(c.readout.Text, " · baseline p") || !strings.Contains(c.readout.Text, " · established p") {
			t.Errorf("readout %q (shown %v)", c.readout.Text, c.readBox.Visible())
		}
		c.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(2, 2)}})
		if c.readBox.Visible() {
			t.Error("a readout outside the data area")
		}
		c.MouseOut()
		u.compare.axis.SetSelected("log")
	})
	eventually(t, "the CDF on a log axis", func() bool {
		return c.plot != nil && strings.Contains(c.plot.X.Label.Text, "log scale")
	})
	ui(func() {
		s := c.Size()
		c.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(s.Width*0.55, s.Height*0.5)}})
		if !c.readBox.Visible() || !strings.Contains(c.readout.Text, " · established p") {
			t.Errorf("readout on a log axis %q", c.readout.Text)
		}
	})
	// The utilisation timeline reads each arm's busy % at the time under the mouse.
	util := u.compare.charts["utilisation"]
	eventually(t, "the utilisation chart laid out", func() bool { return util.plot != nil && util.Size().Width > 100 })
	ui(func() {
		s := util.Size()
		util.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(s.Width*0.5, s.Height*0.5)}})
		if !util.readBox.Visible() || !strings.HasPrefix(util.readout.Text, "time since the first sample (s) ") ||
			!strings.Contains(util.readout.Text, " · baseline") || !strings.Contains(util.readout.Text, "% busy") {
			t.Errorf("utilisation readout %q", util.readout.Text)
		}
	})
}

// shownText reports whether the window's top overlay (a dialog) shows a text containing sub.
func shownText(u *App, sub string) bool {
	top := u.win.Canvas().Overlays().Top()
	return top != nil && hasText(top, sub)
}

func hasText(o fyne.CanvasObject, sub string) bool {
	switch v := o.(type) {
	case *canvas.Text:
		return strings.Contains(v.Text, sub)
	case *widget.Label:
		return strings.Contains(v.Text, sub)
	case *widget.RichText:
		return strings.Contains(v.String(), sub)
	case *fyne.Container:
		for _, c := range v.Objects {
			if hasText(c, sub) {
				return true
			}
		}
		return false
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(v).Objects() {
			if hasText(c, sub) {
				return true
			}
		}
	}
	return false
}

// Exporting onto the library refuses it and leaves its bytes as they were; onto an existing
// file it asks before replacing; a new name is written.
func TestExportNeverTouchesTheLibrary(t *testing.T) {
	u := newDemoApp(t)
	ui(func() { u.compare.setArm(true, "baseline") })
	ui(func() { u.compare.setArm(false, "offset") })
	shown(t, u, "baseline", "offset")
	var id int64
	var err error
	ui(func() { id, err = u.compare.saveOnce() })
	if err != nil {
		t.Fatal(err)
	}
	lib := u.st.Path()
	before, err := os.ReadFile(lib)
	if err != nil {
		t.Fatal(err)
	}
	opt := library.ExportOptions{IDs: []int64{id}}
	ui(func() { u.exportTo(library.FormatXLSX, lib, opt, nil) })
	eventually(t, "the refusal", func() bool { return shownText(u, "library itself") })
	if after, err := os.ReadFile(lib); err != nil || !bytes.Equal(before, after) {
		t.Fatalf("the library changed (%v)", err)
	}

	other := filepath.Join(t.TempDir(), "old.xlsx")
	os.WriteFile(other, []byte("keep"), 0o644)
	if !get(func() bool { u.exportTo(library.FormatXLSX, other, opt, nil); return shownText(u, "Replace it?") }) {
		t.Error("no Replace? question for an existing file")
	}
	if b, _ := os.ReadFile(other); string(b) != "keep" {
		t.Error("the existing file changed before the answer")
	}

	fresh := filepath.Join(t.TempDir(), "new.xlsx")
	ui(func() { u.exportTo(library.FormatXLSX, fresh, opt, nil) })
	eventually(t, "the export", func() bool { return strings.HasPrefix(u.status.Text, "Exported to") })
	if b, err := os.ReadFile(fresh); err != nil || !bytes.HasPrefix(b, []byte("PK")) {
		t.Errorf("no workbook written: %v", err)
	}
}
