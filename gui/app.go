// Package gui is the benchlens desktop app: a library sidebar and four views (run, compare,
// verdict, settings), one file each. Everything is built by New from (fyne.App, fyne.Window)
// and an open library, so tests build exactly what users see. Long work (imports, loading
// arms, analysis, chart rendering) runs off the UI thread and comes back through fyne.Do.
package gui

import (
	"embed"
	"os"
	"os/user"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	_ "benchlens/internal/clocale" // before Fyne reads the locale
	"benchlens/store"
)

//go:embed translations
var translations embed.FS

func init() {
	if err := lang.AddTranslationsFS(translations, "translations"); err != nil {
		fyne.LogError("loading translations", err)
	}
}

// Options adjust the app.
type Options struct {
	// LoadDemoIfEmpty imports the built-in sample bundles when the library is empty.
	LoadDemoIfEmpty bool
	// OpenLibrary opens another library file (Settings); nil hides the button.
	OpenLibrary func(path string) (*store.Store, error)
}

// Views, in tab order; the index is remembered between sessions.
const (
	viewRun = iota
	viewCompare
	viewVerdict
	viewSettings
)

// App is the running desktop app.
type App struct {
	fyneApp fyne.App
	win     fyne.Window
	st      *store.Store
	opt     Options

	library  *libraryView
	run      *runView
	compare  *compareView
	verdict  *verdictView
	settings *settingsView
	importer *importer

	tabs   *container.AppTabs
	status *widget.Label
	arms   *armCache
}

// New builds the app's window content for an open library.
func New(a fyne.App, w fyne.Window, st *store.Store, opt Options) *App {
	u := &App{fyneApp: a, win: w, st: st, opt: opt, status: widget.NewLabel(""), arms: newArmCache()}
	u.settings = newSettingsView(u)
	u.run = newRunView(u)
	u.compare = newCompareView(u)
	u.verdict = newVerdictView(u)
	u.importer = newImporter(u)
	u.library = newLibraryView(u)

	u.tabs = container.NewAppTabs(
		container.NewTabItem(lang.L("Run"), u.run.content),
		container.NewTabItem(lang.L("Compare"), u.compare.content),
		container.NewTabItem(lang.L("Verdict"), u.verdict.content),
		container.NewTabItem(lang.L("Settings"), u.settings.content),
	)
	last := a.Preferences().IntWithFallback("view.last", viewCompare)
	if last >= 0 && last < len(u.tabs.Items) {
		u.tabs.SelectIndex(last)
	}
	u.tabs.OnSelected = func(*container.TabItem) {
		a.Preferences().SetInt("view.last", u.tabs.SelectedIndex())
	}

	split := container.NewHSplit(u.library.content, u.tabs)
	split.SetOffset(0.28)
	w.SetContent(container.NewBorder(nil, container.NewBorder(nil, nil, nil, u.importer.bar, u.status), nil, nil, split))
	w.SetOnDropped(u.importer.onDropped)
	u.shortcuts()
	u.menu()
	u.restoreWindowSize()

	u.library.reload(func() {
		if opt.LoadDemoIfEmpty && u.library.count() == 0 {
			u.importer.loadDemo()
		}
	})
	u.verdict.reload()
	return u
}

// Window is the app's window.
func (u *App) Window() fyne.Window { return u.win }

// Store is the open library.
func (u *App) Store() *store.Store { return u.st }

// setStatus shows a one-line message at the bottom of the window.
func (u *App) setStatus(msg string) { u.status.SetText(msg) }

// showView switches to a view.
func (u *App) showView(i int) {
	if i >= 0 && i < len(u.tabs.Items) {
		u.tabs.SelectIndex(i)
	}
}

// libraryChanged refreshes everything that lists runs or comparisons.
func (u *App) libraryChanged() {
	u.arms.clear()
	u.library.reload(nil)
	u.compare.reloadArms()
	u.verdict.reload()
}

// switchLibrary replaces the open library (Settings → open another).
func (u *App) switchLibrary(st *store.Store) {
	old := u.st
	u.st = st
	u.fyneApp.Preferences().SetString("library.path", st.Path())
	u.settings.reload()
	u.libraryChanged()
	if old != nil {
		old.Close()
	}
}

func (u *App) restoreWindowSize() {
	p := u.fyneApp.Preferences()
	width := float32(p.FloatWithFallback("window.width", 1280))
	height := float32(p.FloatWithFallback("window.height", 820))
	u.win.Resize(fyne.NewSize(width, height))
	u.win.SetCloseIntercept(func() {
		size := u.win.Canvas().Size()
		p.SetFloat("window.width", float64(size.Width))
		p.SetFloat("window.height", float64(size.Height))
		u.verdict.flush()
		u.win.Close()
	})
}

// author is the OS user, recorded with every annotation.
func author() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	if n := os.Getenv("USER"); n != "" {
		return n
	}
	return "unknown"
}
