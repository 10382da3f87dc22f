package gui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// visibleTreeRows counts the sidebar tree's rows drawn whole inside the tree: what the
// analyst can read and tick without scrolling.
func visibleTreeRows(u *App) int {
	d := fyne.CurrentApp().Driver()
	tree := u.library.tree
	top := d.AbsolutePositionForObject(tree).Y
	bottom := top + tree.Size().Height
	n := 0
	for _, c := range under[*widget.Check](tree, true) {
		y := d.AbsolutePositionForObject(c).Y
		if y >= top && y+c.Size().Height <= bottom+1 {
			n++
		}
	}
	return n
}

// On a laptop's 1366×768 with two arms ticked, the sidebar still shows most of its tree: the
// marked items' bar takes two rows, not five, and every action on them is one tap or one
// menu away.
func TestSidebarAtLaptopHeightWithMarks(t *testing.T) {
	u := newDemoApp(t)
	ui(func() { u.resize(fyne.NewSize(1366, 768)) })
	open := func() int { // every arm open: more rows than fit
		u.library.content.Refresh() // laid out again, as the window's next frame does
		u.library.tree.OpenAllBranches()
		u.library.tree.ScrollToTop()
		return visibleTreeRows(u)
	}
	before := get(open)
	ui(u.library.tree.CloseAllBranches)
	markRow(t, u, "fallback (")
	markRow(t, u, "baseline (")
	eventually(t, "the marked line", func() bool {
		return strings.Contains(drawnText(u.library.content), "Marked: 2 items, 10 runs")
	})
	rows := get(open)
	shot(t, u, "sidebar-marks-1366x768")
	t.Logf("%d tree rows visible, %d before the marks", rows, before)
	if rows < 8 || rows < before-1 {
		t.Errorf("at 1366×768 with 2 marks the tree shows %d whole rows (%d without marks)", rows, before)
	}
	sidebar := get(func() string { return drawnText(u.library.content) })
	for _, want := range []string{"Clear marks", "Compare these", "More…", "Use as baseline", "Use as candidate"} {
		if !strings.Contains(sidebar, want) {
			t.Errorf("the sidebar with marks does not draw %q: %s", want, sidebar)
		}
	}
	tapSidebar(t, u, "More…")
	menu := get(func() string { return drawnText(u.win.Canvas().Overlays().Top()) })
	if menu != "Relabel… Role… Delete…" {
		t.Errorf("the marked items' menu: %q", menu)
	}
	shot(t, u, "sidebar-marks-menu-1366x768")
}
