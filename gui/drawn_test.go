package gui

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"benchlens/library"
	"benchlens/model"
)

// drawn is every text painted under o, in drawing order: the canvas.Text objects of the
// visible objects, reached through the widgets' renderers as the canvas reaches them. It reads
// what the analyst sees, not the widgets' fields (a widget.Form keeps old row widgets when
// its Items are replaced: its fields say one thing, the screen another). Call it under ui.
func drawn(o fyne.CanvasObject) []string {
	var out []string
	for _, t := range texts(o) {
		out = append(out, t.Text)
	}
	return out
}

// texts are the visible, non-blank canvas.Text objects drawn under o, as the renderers lay
// them out: what every test that reads the screen reads.
func texts(o fyne.CanvasObject) []*canvas.Text {
	var out []*canvas.Text
	for _, t := range under[*canvas.Text](o, true) {
		if strings.TrimSpace(t.Text) != "" {
			out = append(out, t)
		}
	}
	return out
}

// under is every object of type T under o, reached through containers and the widgets'
// renderers as the canvas reaches them (a T's own parts are not searched); hidden ones are
// left out when visibleOnly.
func under[T fyne.CanvasObject](o fyne.CanvasObject, visibleOnly bool) []T {
	var out []T
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if o == nil || visibleOnly && !o.Visible() {
			return
		}
		if t, ok := o.(T); ok {
			out = append(out, t)
			return
		}
		switch v := o.(type) {
		case *fyne.Container:
			for _, c := range v.Objects {
				walk(c)
			}
		case fyne.Widget:
			if r := test.WidgetRenderer(v); r != nil {
				for _, c := range r.Objects() {
					walk(c)
				}
			}
		}
	}
	walk(o)
	return out
}

// drawnText is drawn joined by spaces, runs of white space as one, so a wrapped line reads as
// the sentence it was before it wrapped.
func drawnText(o fyne.CanvasObject) string {
	return strings.Join(strings.Fields(strings.Join(drawn(o), " ")), " ")
}

// windowText is everything drawn in the window's content.
func windowText(u *App) string { return drawnText(u.win.Content()) }

// importH100 imports the real FP16/FP8 H100 pair as a lab would: one label per arm.
func importH100(t *testing.T, u *App) (fp16, fp8 []int64) {
	t.Helper()
	dir := "../testdata/fixtures/results/h100-fp16-vs-fp8/"
	files := func(glob string) []string {
		m, _ := filepath.Glob(dir + glob)
		return m
	}
	for _, arm := range []struct {
		label string
		role  model.Role
		glob  string
		ids   *[]int64
	}{{"fp16", model.RoleBaseline, "FP16-*.json", &fp16}, {"fp8", model.RoleCandidate, "FP8-*.json", &fp8}} {
		rep := library.Import(u.st, files(arm.glob), library.Options{Label: arm.label, Role: arm.role})
		if len(rep.Errors) > 0 || len(rep.Added) != 2 {
			t.Fatalf("import %s: added %v, errors %v", arm.label, rep.Added, rep.Errors)
		}
		*arm.ids = rep.Added
	}
	ui(u.libraryChanged)
	eventually(t, "the H100 runs in the sidebar", func() bool { return u.library.count() == 4 })
	return fp16, fp8
}

// Opening one run after another shows the second run's summary, not the first's rows under
// the second's title (widget.Form kept its old rows when Items was replaced by as many).
func TestRunSummaryShowsTheRunClicked(t *testing.T) {
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	fp16, fp8 := importH100(t, u)
	ui(func() { u.showView(viewRun) })
	for _, id := range []int64{fp16[0], fp8[0]} {
		ui(func() { u.run.show(id) })
		eventually(t, "the run's title", func() bool { return strings.HasPrefix(u.run.title.Text, "Run #"+strconv.FormatInt(id, 10)+" — ") })
	}
	text := get(func() string { return drawnText(u.run.content) })
	for _, want := range []string{"Run #" + strconv.FormatInt(fp8[0], 10) + " — fp8", "neuralmagic/Meta-Llama-3.1-8B-Instruct-FP8", "TTFT p50 42.15 ms"} {
		if !strings.Contains(text, want) {
			t.Errorf("the summary of run %d does not show %q:\n%s", fp8[0], want, text)
		}
	}
	for _, stale := range []string{"meta-llama/Llama-3.1-8B-Instruct", "TTFT p50 54.8 ms"} {
		if strings.Contains(text, stale) {
			t.Errorf("the summary of run %d shows run %d's %q:\n%s", fp8[0], fp16[0], stale, text)
		}
	}
	shot(t, u, "run-after-run")
}

// Before a run is clicked the Run view draws its prompt alone, not an empty "Attention
// backend" card under it; and the status counts one arm as one ("4 runs in 1 arm").
func TestRunViewBeforeAClickAndOneArm(t *testing.T) {
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	m, _ := filepath.Glob("../testdata/fixtures/results/h100-fp16-vs-fp8/*.json")
	if rep := library.Import(u.st, m, library.Options{Label: "h100"}); len(rep.Errors) > 0 || len(rep.Added) != 4 {
		t.Fatalf("import: added %v, errors %v", rep.Added, rep.Errors)
	}
	ui(u.libraryChanged)
	eventually(t, "the runs in the sidebar", func() bool { return strings.Contains(windowText(u), "4 runs in 1 arm") })
	if text := get(func() string { return windowText(u) }); strings.Contains(text, "1 arms") {
		t.Errorf("the status says %q:\n%s", "1 arms", text)
	}
	ui(func() { u.showView(viewRun) })
	text := get(func() string { return drawnText(u.run.content) })
	if !strings.Contains(text, "Select a run in the library.") || strings.Contains(text, "Attention backend") {
		t.Errorf("the Run view before a click draws:\n%s", text)
	}
	ui(func() { u.run.show(1) })
	eventually(t, "the run's backend", func() bool {
		return strings.Contains(drawnText(u.run.content), "Attention backend")
	})
}

// The Tool row joins what the file says with one space and one dot: no double space where a
// tool has no version, no trailing dot where a format has no era.
func TestToolText(t *testing.T) {
	for _, c := range []struct {
		run  model.Run
		want string
	}{
		{model.Run{Tool: "vllm", Era: "E (vLLM v0.6.5-v0.8.2)"}, "vllm · E (vLLM v0.6.5-v0.8.2)"},
		{model.Run{Tool: "aiperf", ToolVersion: "0.11.0"}, "aiperf 0.11.0"},
		{model.Run{Tool: "llmperf", ToolVersion: "2023-08-31", Era: "summary"}, "llmperf 2023-08-31 · summary"},
		{model.Run{}, ""},
	} {
		if got := toolText(&c.run); got != c.want {
			t.Errorf("toolText(%+v) = %q, want %q", c.run, got, c.want)
		}
	}
}

// A comparison that fails does not leave the status naming the pair compared before it: the
// status bar said "Compared baseline (5 runs) with drift (5 runs)" under the error of
// baseline against one of its own runs.
func TestFailedCompareStatusNamesItsOwnPair(t *testing.T) {
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	for _, arm := range []string{"baseline", "drift"} {
		if rep := library.Import(u.st, []string{"../demo/samples/" + arm}, library.Options{}); len(rep.Errors) > 0 || len(rep.Added) == 0 {
			t.Fatalf("import %s: added %v, errors %v", arm, rep.Added, rep.Errors)
		}
	}
	ui(u.libraryChanged)
	eventually(t, "the two arms in the sidebar", func() bool { return len(u.library.children[""]) == 2 })
	compared := watchComparisons(u)
	ui(func() { u.compare.setArm(true, "baseline") })
	ui(func() { u.compare.setArm(false, "drift") })
	compared(t, "baseline", "drift")
	if text := get(func() string { return windowText(u) }); !strings.Contains(text, "Compared baseline (5 runs) with drift (5 runs)") {
		t.Fatalf("the status after a comparison:\n%s", text)
	}
	ui(func() { u.compare.setArm(false, "ids:1") }) // a run of the baseline
	eventually(t, "the error", func() bool { return strings.Contains(windowText(u), "give each arm its own runs") })
	text := get(func() string { return windowText(u) })
	if strings.Contains(text, "with drift") || !strings.Contains(text, "Could not compare baseline with ids:1") {
		t.Errorf("the status under the error of baseline against ids:1:\n%s", text)
	}
}
