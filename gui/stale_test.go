package gui

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"benchlens/analysis/compare"
	"benchlens/library"
	"benchlens/store"

	"fyne.io/fyne/v2/test"
)

// An arm whose load began before the library changed is handed to its caller but not kept:
// the next comparison loads it again, with the runs just imported.
func TestArmLoadedBeforeAClearIsNotKept(t *testing.T) {
	c := newArmCache()
	started, release := make(chan struct{}), make(chan struct{})
	loads := 0
	c.load = func(*store.Store, string) (compare.Arm, error) {
		loads++
		if loads == 1 {
			close(started)
			<-release
		}
		return compare.Arm{Label: "baseline"}, nil
	}
	done := make(chan struct{})
	go func() {
		c.get(nil, "baseline")
		close(done)
	}()
	<-started
	c.clear() // an import finished meanwhile
	close(release)
	<-done
	c.get(nil, "baseline")
	if loads != 2 {
		t.Errorf("%d loads, want 2: the arm loaded before the clear was kept", loads)
	}
	c.get(nil, "baseline")
	if loads != 2 {
		t.Errorf("%d loads, want 2: an arm loaded after the clear was not kept", loads)
	}
}

// Of two reloads of the sidebar, the newer one's rows stay even when the older one answers
// last (a slow read of the library just closed, or of the runs before an import).
func TestOlderLibraryReloadNeverReplacesANewerOne(t *testing.T) {
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	slow, olderDone := make(chan struct{}), make(chan struct{})
	ui(func() {
		u.library.read = func(*store.Store, func([]library.BriefRow)) ([]library.BriefRow, error) {
			<-slow
			return []library.BriefRow{{ID: 1}, {ID: 2}, {ID: 3}}, nil // the older answer
		}
		u.library.reload(func() { close(olderDone) })
		u.library.read = func(*store.Store, func([]library.BriefRow)) ([]library.BriefRow, error) {
			return []library.BriefRow{{ID: 7}}, nil
		}
		u.library.reload(nil)
	})
	eventually(t, "the newer reload", func() bool { return u.library.count() == 1 })
	close(slow)
	<-olderDone
	if n := get(u.library.count); n != 1 {
		t.Errorf("%d rows shown, want the newer reload's 1", n)
	}
}

// After a switch to another library, the run view no longer shows a run of the old one (run
// ids start again in every library).
func TestRunViewClearedOnLibrarySwitch(t *testing.T) {
	u := newDemoApp(t)
	ui(func() { u.run.show(3) })
	eventually(t, "run 3", func() bool { return strings.HasPrefix(u.run.title.Text, "Run #3 — ") })
	other, err := store.Open(filepath.Join(t.TempDir(), "other.db"))
	if err != nil {
		t.Fatal(err)
	}
	if !get(func() bool { return u.switchLibrary(other) }) {
		t.Fatal("switch refused")
	}
	if text := get(func() string { return drawnText(u.run.content) }); strings.Contains(text, "#3") || strings.Contains(text, "TTFT") {
		t.Errorf("run view after the switch: %q", text)
	}
}

// A note still waiting for its autosave when another library opens is written to the library
// it was typed in, and the verdict view then shows nothing of it.
func TestPendingNoteSavedBeforeALibrarySwitch(t *testing.T) {
	u := newDemoApp(t)
	ui(func() { u.compare.setArm(true, "baseline") })
	ui(func() { u.compare.setArm(false, "established") })
	shown(t, u, "baseline", "established")
	cmp := get(func() int64 { test.Tap(u.compare.save); return u.verdict.current })
	lib := get(func() string { return u.st.Path() })
	ui(func() { test.Type(u.verdict.note, "typed just before the switch") }) // autosave pending
	other, err := store.Open(filepath.Join(t.TempDir(), "other.db"))
	if err != nil {
		t.Fatal(err)
	}
	if !get(func() bool { return u.switchLibrary(other) }) {
		t.Fatal("switch refused")
	}
	if note, current := get(func() string { return u.verdict.note.Text }), get(func() int64 { return u.verdict.current }); note != "" || current != 0 {
		t.Errorf("verdict view after the switch: note %q, comparison %d", note, current)
	}
	time.Sleep(2 * saveDelay) // an autosave that was still pending would have fired by now
	if n, err := other.Annotations(cmp); err != nil || len(n) != 0 {
		t.Errorf("the new library got %d annotations (%v)", len(n), err)
	}
	old, err := store.Open(lib)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if cur, err := old.CurrentAnnotation(cmp); err != nil || cur.Note != "typed just before the switch" {
		t.Errorf("the note in the library it was typed in: %q (%v)", cur.Note, err)
	}
}
