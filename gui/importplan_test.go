package gui

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// find is the first object under o (through the widgets' renderers, visible ones only) that
// match accepts.
func find[T fyne.CanvasObject](o fyne.CanvasObject, match func(T) bool) (T, bool) {
	var zero T
	if o == nil || !o.Visible() {
		return zero, false
	}
	if v, ok := o.(T); ok && match(v) {
		return v, true
	}
	var kids []fyne.CanvasObject
	switch v := o.(type) {
	case *fyne.Container:
		kids = v.Objects
	case fyne.Widget:
		if r := test.WidgetRenderer(v); r != nil {
			kids = r.Objects()
		}
	}
	for _, k := range kids {
		if f, ok := find(k, match); ok {
			return f, true
		}
	}
	return zero, false
}

// topDialog is the window's top overlay, nil when none is shown. Call it under ui.
func topDialog(u *App) fyne.CanvasObject { return u.win.Canvas().Overlays().Top() }

// tapButton taps the button of the top dialog that reads text.
func tapButton(t *testing.T, u *App, text string) {
	t.Helper()
	var b *widget.Button
	eventually(t, "a button "+text, func() bool {
		var ok bool
		b, ok = find(topDialog(u), func(b *widget.Button) bool { return drawnText(b) == text })
		return ok
	})
	ui(func() { test.Tap(b) })
}

// dropAndConfirm drops paths on the window and imports them as the import dialog proposes,
// without waiting for the import to end.
func dropAndConfirm(t *testing.T, u *App, paths ...string) {
	t.Helper()
	ui(func() { u.importer.onDropped(fyne.Position{}, dropped(paths...)) })
	eventually(t, "the import dialog", func() bool { return u.importer.current != nil })
	tapButton(t, u, "Import")
}

// The real H100 folder holds both arms: the import dialog shows it as one arm named after the
// folder, says it holds two models, and split by model it is the arms FP16 and FP8, imported
// so without a relabel; the sidebar's rows name each run's model and precision.
func TestImportDialogSplitsByModel(t *testing.T) {
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	ui(func() {
		u.importer.onDropped(fyne.Position{}, dropped("../testdata/fixtures/results/h100-fp16-vs-fp8"))
	})
	eventually(t, "the import dialog", func() bool { return u.importer.current != nil && topDialog(u) != nil })
	text := get(func() string { return drawnText(topDialog(u)) })
	for _, want := range []string{"Found 4 runs in h100-fp16-vs-fp8.", "one arm per imported folder", "4 runs",
		"h100-fp16-vs-fp8 holds runs of several models or precisions: split by model"} {
		if !strings.Contains(text, want) {
			t.Errorf("the import dialog does not show %q:\n%s", want, text)
		}
	}
	split := get(func() *widget.Select {
		s, _ := find(topDialog(u), func(s *widget.Select) bool { return strings.Contains(drawnText(s), "one arm per") })
		return s
	})
	ui(func() { split.SetSelected("one arm per model (or precision)") })
	eventually(t, "two arms FP16 and FP8 in the dialog", func() bool {
		text = drawnText(topDialog(u))
		return strings.Contains(text, "FP16 2 runs") && strings.Contains(text, "FP8 2 runs")
	})
	for _, want := range []string{"Llama-3.1-8B-Instruct · FP16", "Meta-Llama-3.1-8B-Instruct-FP8 · FP8"} {
		if !strings.Contains(text, want) {
			t.Errorf("the split dialog does not show %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "holds runs of several models") {
		t.Errorf("split by model, the dialog still says a group mixes models:\n%s", text)
	}
	shot(t, u, "import-dialog")
	tapButton(t, u, "Import")
	eventually(t, "the import", func() bool { return !u.importer.busy && u.library.count() == 4 })
	eventually(t, "the arms FP16 and FP8 in the sidebar", func() bool {
		text = drawnText(u.library.content)
		return strings.Contains(text, "FP16 (2) · FP16") && strings.Contains(text, "FP8 (2) · FP8")
	})
	ui(func() { u.library.tree.OpenAllBranches() })
	t.Cleanup(func() { t.Log(get(func() string { return drawnText(u.library.content) })) })
	eventually(t, "run rows with model and precision", func() bool {
		text = drawnText(u.library.content)
		return strings.Contains(text, "#1 · FP16 · Llama-3.1-8B-Instruct") && strings.Contains(text, "#3 · FP8 · Meta-Llama-3.1-8B")
	})
	shot(t, u, "import-split")
}

// A folder of two attempts' folders (a real lab's, testdata/labruns/tpu-attempts) is one arm
// by default; the dialog says its runs lie in two folders and that one arm per subfolder
// makes an arm of each, and once split it says so no more.
func TestImportDialogSaysRunsLieInSeveralFolders(t *testing.T) {
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	ui(func() {
		u.importer.onDropped(fyne.Position{}, dropped("../cmd/benchlens/testdata/labruns/tpu-attempts"))
	})
	eventually(t, "the import dialog", func() bool { return u.importer.current != nil && topDialog(u) != nil })
	want := "tpu-attempts holds runs of 2 folders (20260426-195024-gemma4-tpu, 20260426-222601-gemma4-tpu): one arm per subfolder makes an arm of each."
	if text := get(func() string { return drawnText(topDialog(u)) }); !strings.Contains(text, want) {
		t.Errorf("the import dialog does not say the runs lie in two folders:\n%s", text)
	}
	split := get(func() *widget.Select {
		s, _ := find(topDialog(u), func(s *widget.Select) bool { return strings.Contains(drawnText(s), "one arm per") })
		return s
	})
	ui(func() { split.SetSelected("one arm per subfolder") })
	eventually(t, "two arms in the dialog", func() bool {
		text := drawnText(topDialog(u))
		return strings.Contains(text, "20260426-195024-gemma4-tpu 3 runs") && !strings.Contains(text, "holds runs of 2 folders")
	})
	tapButton(t, u, "Cancel")
}

// Cancel (or Escape) imports nothing.
func TestImportDialogCancel(t *testing.T) {
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	ui(func() { u.importer.onDropped(fyne.Position{}, dropped("../demo/samples/baseline")) })
	eventually(t, "the import dialog", func() bool { return u.importer.current != nil })
	ui(func() { u.onTypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape}) })
	eventually(t, "the dialog closed", func() bool { return u.importer.current == nil && topDialog(u) == nil })
	if get(func() bool { return u.importer.busy }) || get(u.library.count) != 0 {
		t.Error("Escape on the import dialog imported")
	}
}
