package gui

import (
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2/test"
)

// The view shown last is remembered by name; an index an earlier version remembered is read
// once and replaced by the name.
func TestRememberedViewByName(t *testing.T) {
	if got := rememberedView(test.NewTempApp(t).Preferences()); got != viewCompare {
		t.Errorf("nothing remembered: view %d, want Compare", got)
	}
	p := test.NewTempApp(t).Preferences()
	p.SetInt(prefViewIndex, viewVerdict)
	if got := rememberedView(p); got != viewVerdict {
		t.Errorf("old index %d: view %d, want Verdict", viewVerdict, got)
	}
	if name, old := p.String(prefView), p.IntWithFallback(prefViewIndex, -1); name != "verdict" || old != -1 {
		t.Errorf("after reading the old index: %s = %q, %s = %d; want \"verdict\" and no index", prefView, name, prefViewIndex, old)
	}
	p.SetInt(prefViewIndex, viewRun) // a stale index never overrides the name
	p.SetString(prefView, "settings")
	if got := rememberedView(p); got != viewSettings {
		t.Errorf("name \"settings\": view %d, want Settings", got)
	}
	p.SetString(prefView, "no-such-view") // a view this version does not have
	if got := rememberedView(p); got != viewCompare {
		t.Errorf("unknown name: view %d, want Compare", got)
	}
}

// The app opens on the view left last time, and remembers the next one by its name.
func TestAppOpensTheViewLeft(t *testing.T) {
	u, a := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	ui(func() { u.showView(viewSettings) })
	if got := a.Preferences().String(prefView); got != "settings" {
		t.Fatalf("remembered %q, want \"settings\"", got)
	}
	var again *App
	ui(func() { again = New(a, test.NewTempWindow(t, nil), u.st, Options{}) })
	if got := get(again.tabs.SelectedIndex); got != viewSettings {
		t.Errorf("reopened on view %d, want Settings", got)
	}
}
