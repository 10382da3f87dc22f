package gui

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"benchlens/internal/pgtest"
	"benchlens/library"
	"benchlens/store"
)

// Settings → Open a team library: a URL that is none is refused in the form; a team library's
// URL opens it off the UI thread and shows its runs, and the app remembers it without a
// password.
func TestOpenTeamLibrary(t *testing.T) {
	team := pgtest.NewDatabase(t)
	st, err := store.Open(team)
	if err != nil {
		t.Fatal(err)
	}
	if rep := library.Import(st, []string{"../demo/samples/baseline"}, library.Options{}); len(rep.Added) != 5 {
		t.Fatalf("seeding the team library: %+v", rep)
	}
	st.Close()

	u, a := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	ui(func() { u.opt.OpenLibrary = store.Open })
	d := get(u.showTeamLibraryDialog)
	ui(func() {
		u.showView(viewSettings)
		d.url.SetText("/home/ana/library.db")
	})
	if get(d.url.Validate) == nil {
		t.Error("a file path passed as a team library's URL")
	}
	shot(t, u, "team-library")
	withPassword := team + "&password=secret" // pgtest's URLs carry a query already
	ui(func() {
		d.url.SetText(withPassword)
		d.d.Submit()
	})
	eventually(t, "the team library's runs", func() bool { return store.IsPostgres(u.st.Path()) && u.library.count() == 5 })
	t.Cleanup(func() { ui(func() { u.st.Close() }) })
	if got := a.Preferences().String("library.path"); got != store.WithoutPassword(withPassword) || strings.Contains(got, "secret") || !strings.Contains(got, "user=benchlens") {
		t.Errorf("remembered %q, want the URL without its password", got)
	}
}

// What happened on the way to the library (the one opened last did not open) is said once the
// library is shown.
func TestStartupNoticeShown(t *testing.T) {
	a := test.NewTempApp(t)
	w := test.NewTempWindow(t, nil)
	st, err := store.Open(filepath.Join(t.TempDir(), "lib.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	const notice = "The library opened last (/mnt/lab/lab.db) is not there. This is your own library."
	ui(func() {
		New(a, w, st, Options{Notice: notice})
		w.Resize(fyne.NewSize(1280, 820))
	})
	eventually(t, "the notice", func() bool {
		top := w.Canvas().Overlays().Top()
		return top != nil && hasText(top, "is not there")
	})
}

// No library is swapped from under a running import: the switch is refused, said, and the
// library opened for it closed.
func TestNoLibrarySwitchDuringAnImport(t *testing.T) {
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	other, err := store.Open(filepath.Join(t.TempDir(), "other.db"))
	if err != nil {
		t.Fatal(err)
	}
	before := get(func() *store.Store { return u.st })
	ui(func() { u.importer.busy = true }) // as while an import runs
	if get(func() bool { return u.switchLibrary(other) }) {
		t.Fatal("switched libraries during an import")
	}
	after, status := get(func() *store.Store { return u.st }), get(func() string { return u.status.Text })
	if after != before || !strings.Contains(status, "import is running") {
		t.Errorf("library %s, status %q", after.Path(), status)
	}
	if _, err := other.Runs(); err == nil {
		t.Error("the library opened for the refused switch is still open")
	}
	ui(func() { u.importer.busy = false })
}

// A team library that does not open is said in one status line and a dialog; the library on
// screen stays.
func TestTeamLibraryThatDoesNotOpen(t *testing.T) {
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	before := get(func() *store.Store { return u.st })
	ui(func() {
		u.opt.OpenLibrary = func(string) (*store.Store, error) {
			return nil, errors.New("failed to connect to `user=ana database=bench`:\n\thostname resolving error")
		}
		d := u.showTeamLibraryDialog()
		d.url.SetText("postgres://ana@db.invalid/bench")
		d.d.Submit()
	})
	eventually(t, "the refusal", func() bool { return strings.HasPrefix(u.status.Text, "Team library not opened") })
	status := get(func() string { return u.status.Text })
	if strings.Contains(status, "\n") || !strings.Contains(status, "hostname resolving error") {
		t.Errorf("status %q: want the whole error on one line", status)
	}
	if get(func() *store.Store { return u.st }) != before || !get(func() bool { return shownText(u, "to connect to") }) {
		t.Error("the open library changed, or no dialog says why")
	}
}
