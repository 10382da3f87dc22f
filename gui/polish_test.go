package gui

import (
	"path/filepath"
	"strings"
	"testing"

	"benchlens/model"
)

// The window's title names the open library; Help explains every cause a verdict can name,
// with its rule, and lists the keyboard shortcuts.
func TestTitleAndHelp(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lab-h100.db")
	u, _ := newTestApp(t, db)
	if title := get(u.win.Title); title != "benchlens — lab-h100.db" {
		t.Errorf("the window's title is %q", title)
	}
	ui(u.showCauseGuide)
	text := get(func() string { return drawnText(topDialog(u)) })
	for _, code := range model.CauseCodes {
		if !strings.Contains(text, string(code)) {
			t.Errorf("the causes' guide does not explain %s", code)
		}
	}
	if !strings.Contains(text, "Faster, but the resolved backend did not change: the gain comes from elsewhere.") {
		t.Errorf("the guide does not say what path_unchanged means: %s", text)
	}
	ui(func() { u.escape() })
	ui(u.showShortcuts)
	text = get(func() string { return drawnText(topDialog(u)) })
	for _, want := range []string{"Ctrl+O", "Ctrl+B Show or hide the library", "Escape Close the dialog on top"} {
		if !strings.Contains(text, want) {
			t.Errorf("the shortcuts do not list %q: %s", want, text)
		}
	}
}
