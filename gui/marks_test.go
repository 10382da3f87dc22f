package gui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// markRow ticks the check box of the sidebar row whose drawn text starts with prefix.
func markRow(t *testing.T, u *App, prefix string) {
	t.Helper()
	var check *widget.Check
	eventually(t, "the sidebar row "+prefix, func() bool {
		row, ok := find(u.library.tree, func(c *fyne.Container) bool {
			if len(c.Objects) != 2 {
				return false
			}
			l, ok := c.Objects[0].(*widget.Label)
			return ok && strings.HasPrefix(drawnText(l), prefix)
		})
		if ok {
			check, ok = row.Objects[1].(*widget.Check)
		}
		return ok
	})
	ui(func() { test.TapAt(check, fyne.NewPos(check.Size().Width/2, check.Size().Height/2)) }) // on the box
}

// tapSidebar taps the sidebar's button that reads text.
func tapSidebar(t *testing.T, u *App, text string) {
	t.Helper()
	var b *widget.Button
	eventually(t, "the sidebar button "+text, func() bool {
		var ok bool
		b, ok = find(u.library.content, func(b *widget.Button) bool { return drawnText(b) == text })
		return ok
	})
	ui(func() { test.Tap(b) })
}

// tapMarkedMenu opens the marked items' menu (More…) and taps its item that reads text.
func tapMarkedMenu(t *testing.T, u *App, text string) {
	t.Helper()
	tapSidebar(t, u, "More…")
	var item fyne.Tappable
	eventually(t, "the menu item "+text, func() bool {
		top := u.win.Canvas().Overlays().Top()
		if top == nil {
			return false
		}
		w, ok := find(top, func(w fyne.Widget) bool { _, tap := w.(fyne.Tappable); return tap && drawnText(w) == text })
		item, _ = w.(fyne.Tappable)
		return ok
	})
	ui(func() { item.Tapped(&fyne.PointEvent{}) })
}

// Two arms ticked in the sidebar are compared with one button, the baseline arm as baseline;
// runs ticked across arms are relabelled together into one arm.
func TestSidebarMarksCompareAndRelabel(t *testing.T) {
	u := newDemoApp(t)
	compared := watchComparisons(u)
	markRow(t, u, "fallback (")
	markRow(t, u, "baseline (")
	eventually(t, "the marked line", func() bool {
		return strings.Contains(drawnText(u.library.content), "Marked: 2 items, 10 runs")
	})
	tapSidebar(t, u, "Compare these")
	compared(t, "baseline", "fallback")

	tapSidebar(t, u, "Clear marks")
	ui(func() { u.library.tree.ScrollTo("arm:zero") })
	markRow(t, u, "zero (")
	ui(func() {
		u.library.tree.OpenBranch("arm:drift")
		u.library.tree.ScrollTo(u.library.children["arm:drift"][0])
	})
	markRow(t, u, "#") // a run of the drift arm
	eventually(t, "the marked line", func() bool { return strings.Contains(drawnText(u.library.content), "Marked: 2 items, 6 runs") })
	tapMarkedMenu(t, u, "Relabel…")
	eventually(t, "the relabel dialog", func() bool { return topDialog(u) != nil && strings.Contains(drawnText(topDialog(u)), "6 runs") })
	entry := get(func() *escEntry {
		e, _ := find(topDialog(u), func(*escEntry) bool { return true })
		return e
	})
	ui(func() {
		entry.SetText("")
		test.Type(entry, "pooled")
	})
	tapButton(t, u, "Apply")
	eventually(t, "the pooled arm", func() bool {
		u.library.tree.ScrollTo("arm:pooled")
		return strings.Contains(drawnText(u.library.content), "pooled (6)")
	})
	if text := get(func() string { return drawnText(u.library.content) }); strings.Contains(text, "Marked:") {
		t.Errorf("marks kept after the relabel:\n%s", text)
	}
}

// One arm ticked and none selected: "Use as candidate" takes the ticked arm, and the Compare
// view then draws that comparison.
func TestUseAsTakesTheOneMarkedArm(t *testing.T) {
	u := newDemoApp(t)
	compared := watchComparisons(u)
	ui(func() { u.library.tree.UnselectAll(); u.library.selected = "" })
	markRow(t, u, "established (")
	tapSidebar(t, u, "Use as candidate")
	compared(t, "baseline", "established")
	eventually(t, "the drawn verdict", func() bool { return strings.Contains(windowText(u), "gain established") })
	if text := get(func() string { return windowText(u) }); strings.Contains(text, "Select an arm, a bundle or a run first.") {
		t.Errorf("the marked arm was refused:\n%s", text)
	}
}
