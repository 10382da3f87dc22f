package gui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// clickRow clicks the sidebar row whose drawn text starts with prefix, where it is drawn.
func clickRow(t *testing.T, u *App, prefix string) {
	t.Helper()
	var at fyne.Position
	eventually(t, "the sidebar row "+prefix, func() bool {
		l, ok := find(u.library.tree, func(l *widget.Label) bool { return strings.HasPrefix(drawnText(l), prefix) })
		if ok {
			at = fyne.CurrentApp().Driver().AbsolutePositionForObject(l).Add(fyne.NewPos(l.Size().Width/2, l.Size().Height/2))
		}
		return ok
	})
	ui(func() { test.TapCanvas(u.win.Canvas(), at) })
}

// Clicking an arm opens it, clicking one of its runs shows that run, and clicking another
// run after it (of another arm, found by a search) shows the other: the Run view draws the
// run clicked last, never the one before, and the sidebar draws what the search left.
func TestClickRunThenAnother(t *testing.T) {
	u := newDemoApp(t)
	runOf := func(arm string) string { // the drawn text of the arm's first run, "#id"
		ids := get(func() []string { return u.library.children["arm:"+arm] })
		if len(ids) == 0 || !strings.HasPrefix(ids[0], runPrefix) {
			t.Fatalf("arm %s lists %v", arm, ids)
		}
		return "#" + strings.TrimPrefix(ids[0], runPrefix) + " "
	}
	a := runOf("baseline")
	clickRow(t, u, "baseline (")
	clickRow(t, u, a)
	eventually(t, "run "+a+"drawn", func() bool {
		return strings.Contains(drawnText(u.run.content), "Run "+strings.TrimSpace(a)+" — baseline")
	})

	ui(func() { u.library.search.SetText("drift") })
	eventually(t, "the search drawn", func() bool {
		text := drawnText(u.library.content)
		return strings.Contains(text, "drift (") && !strings.Contains(text, "baseline (")
	})
	b := runOf("drift")
	clickRow(t, u, "drift (")
	clickRow(t, u, b)
	eventually(t, "run "+b+"drawn", func() bool {
		text := drawnText(u.run.content)
		return strings.Contains(text, "Run "+strings.TrimSpace(b)+" — drift") && !strings.Contains(text, "Run "+strings.TrimSpace(a)+" ")
	})
	if !strings.HasPrefix(get(func() string { return u.status.Text }), "5 of 82 runs shown") {
		t.Errorf("status after the search: %q", get(func() string { return u.status.Text }))
	}
}
