// Package gui is the benchlens desktop app: a library sidebar and four views (run, compare,
// verdict, settings), one file each. Everything is built by New from (fyne.App, fyne.Window)
// and an open library, so tests build exactly what users see. Long work (imports, loading
// arms, analysis, chart rendering) runs off the UI thread and comes back through onUI. The
// views reach the library through package library and render what it and analysis/report
// return; they decide nothing that is saved.
//
// A new view is a file with a struct holding its widgets and named handlers, built by
// newXView(u) in New, with a tab in New's AppTabs, a constant in the view list and its name
// in viewNames (the name, not the tab's place, is remembered between sessions). Its texts go
// through lang.L with their Chinese in translations/; its tests read what is drawn.
package gui

import (
	"embed"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	_ "benchlens/internal/clocale" // before Fyne reads the locale
	"benchlens/library"
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
	// SampleLibrary is a library file of its own for the built-in sample bundles, offered by
	// "Open the sample library" (filled on first open). Samples never enter another library.
	SampleLibrary string
	// OpenLibrary opens another library, a file or a postgres:// URL (Settings); nil hides
	// the buttons.
	OpenLibrary func(location string) (*store.Store, error)
	// Notice is shown once the library has loaded, in a dialog and the status line: what
	// happened on the way to opening it (the last library did not open; the user's own did).
	Notice string
	// Screen is the size of the screen the window opens on, in the window's units (zero:
	// unknown). The window is made to fit it: on first start and when a size remembered from a
	// larger screen would not fit (FitScreen does it later when the screen is known later).
	Screen fyne.Size
}

// Views, in tab order.
const (
	viewRun = iota
	viewCompare
	viewVerdict
	viewSettings
	viewHistory
)

// viewNames name the views, by their index. The name of the view shown last is remembered
// between sessions (prefView), so a tab added or moved never reopens another view.
var viewNames = [...]string{viewRun: "run", viewCompare: "compare", viewVerdict: "verdict", viewSettings: "settings", viewHistory: "history"}

const (
	prefView      = "view"      // the name of the view shown last
	prefViewIndex = "view.last" // its tab index, as earlier versions remembered it: read once
)

// rememberedView is the view to open with: the one shown last, by name, else by the index an
// earlier version remembered (read once: the name replaces it), else Compare.
func rememberedView(p fyne.Preferences) int {
	if name := p.String(prefView); name != "" {
		if i := slices.Index(viewNames[:], name); i >= 0 {
			return i
		}
		return viewCompare
	}
	i := p.IntWithFallback(prefViewIndex, viewCompare)
	p.RemoveValue(prefViewIndex)
	if i < 0 || i >= len(viewNames) {
		return viewCompare
	}
	p.SetString(prefView, viewNames[i])
	return i
}

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
	history  *historyView
	importer *importer

	tabs  *container.AppTabs
	empty fyne.CanvasObject // shown instead of the views while the library has no runs
	// body is the window's middle: the split of sidebar and views, or the views alone while
	// the sidebar is hidden (toggleLibrary).
	body          *fyne.Container
	split         *container.Split
	views         *fyne.Container
	libraryToggle *widget.Button
	status        *widget.Label
	arms          *armCache

	exportDir string          // the folder of the last export, offered again
	dialogs   []dialog.Dialog // open, newest last (showDialog)
	popped    *zoomChart      // the chart open large (popChart), if any
}

// New builds the app's window content for an open library.
func New(a fyne.App, w fyne.Window, st *store.Store, opt Options) *App {
	u := &App{fyneApp: a, win: w, st: st, opt: opt, status: widget.NewLabel(""), arms: newArmCache()}
	u.status.Truncation = fyne.TextTruncateEllipsis // a long message never widens the window
	u.settings = newSettingsView(u)
	u.run = newRunView(u)
	u.compare = newCompareView(u)
	u.verdict = newVerdictView(u)
	u.history = newHistoryView(u)
	u.importer = newImporter(u)
	u.library = newLibraryView(u)

	u.tabs = container.NewAppTabs(
		container.NewTabItem(lang.L("Run"), u.run.content),
		container.NewTabItem(lang.L("Compare"), u.compare.content),
		container.NewTabItem(lang.L("Verdict"), u.verdict.content),
		container.NewTabItem(lang.L("Settings"), u.settings.content),
		container.NewTabItem(lang.L("History"), u.history.content),
	)
	u.tabs.SelectIndex(rememberedView(a.Preferences()))
	u.tabs.OnSelected = func(*container.TabItem) {
		if i := u.tabs.SelectedIndex(); i >= 0 && i < len(viewNames) {
			a.Preferences().SetString(prefView, viewNames[i])
		}
		u.verdict.endSitting()
	}

	u.empty = u.emptyState()
	u.empty.Hide()
	u.views = container.NewStack(u.tabs, u.empty)
	u.split = container.NewHSplit(u.library.content, u.views)
	u.split.SetOffset(0.26)
	u.body = container.NewStack(u.split)
	u.libraryToggle = widget.NewButtonWithIcon("", nil, u.toggleLibrary)
	u.libraryToggle.Importance = widget.LowImportance
	u.showLibraryToggle()
	w.SetContent(container.NewBorder(nil, container.NewBorder(nil, nil, u.libraryToggle, u.importer.bar, u.status), nil, nil, u.body))
	if a.Preferences().Bool(prefLibraryHidden) {
		u.toggleLibrary()
	}
	w.SetOnDropped(u.importer.onDropped)
	w.Canvas().SetOnTypedKey(u.onTypedKey)
	w.SetMainMenu(u.mainMenu())
	u.showTitle()
	u.restoreWindowSize()

	// History's series are read once the sidebar is on screen: both list every run, and on
	// two cores the first frame of a large library waited for both.
	u.library.reload(func() {
		if opt.Notice != "" {
			u.setStatus(opt.Notice)
			u.showInformation(lang.L("Library"), opt.Notice)
		}
		u.history.libraryChanged()
	})
	u.verdict.reload()
	return u
}

// showTitle names the open library in the window's title: "benchlens — lab.db", a team
// library by its URL without the password.
func (u *App) showTitle() {
	name := store.Redacted(u.st.Path())
	if !store.IsPostgres(name) {
		name = filepath.Base(name)
	}
	u.win.SetTitle("benchlens — " + name)
}

// Window is the app's window.
func (u *App) Window() fyne.Window { return u.win }

// Store is the open library.
func (u *App) Store() *store.Store { return u.st }

// setStatus shows a one-line message at the bottom of the window: an error of several lines
// (a server's "failed to connect" with its causes) is joined into one, not grown upwards.
func (u *App) setStatus(msg string) { u.status.SetText(strings.Join(strings.Fields(msg), " ")) }

// uiMu serialises the work handed back to the UI. Fyne's desktop driver runs fyne.Do
// callbacks one at a time on its main thread anyway; its test driver runs them on the calling
// goroutine, where they would race with each other and with the test (tests take uiMu too).
var uiMu sync.Mutex

// onUI runs fn on the UI thread (fyne.Do), one callback at a time.
func onUI(fn func()) {
	fyne.Do(func() {
		uiMu.Lock()
		defer uiMu.Unlock()
		fn()
	})
}

// showView switches to a view.
func (u *App) showView(i int) {
	if i >= 0 && i < len(u.tabs.Items) {
		u.tabs.SelectIndex(i)
	}
}

// libraryChanged refreshes everything that lists runs or comparisons.
func (u *App) libraryChanged() {
	u.arms.clear()
	u.library.reload(u.history.libraryChanged) // after the sidebar's listing, as in New
	u.compare.libraryChanged()
	u.verdict.reload()
	if id := u.run.current; id != 0 {
		u.run.show(id) // relabelled or deleted: the run view says so
	}
}

// showEmpty puts the empty state in place of the views while the library has no runs.
func (u *App) showEmpty(empty bool) {
	if empty {
		u.tabs.Hide()
		u.empty.Show()
	} else {
		u.empty.Hide()
		u.tabs.Show()
	}
}

// emptyState greets an empty library: import bundles, or look at the sample library.
func (u *App) emptyState() fyne.CanvasObject {
	title := widget.NewLabelWithStyle(lang.L("This library has no runs yet."), fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	title.SizeName = theme.SizeNameSubHeadingText
	hint := widget.NewLabel(lang.L("Import benchmark bundles (result folders, .zip or .tar.gz), or drop them on the window."))
	hint.Wrapping = fyne.TextWrapWord
	hint.Alignment = fyne.TextAlignCenter
	buttons := container.NewHBox(
		widget.NewButtonWithIcon(lang.L("Import files…"), theme.FileIcon(), u.importer.chooseFiles),
		widget.NewButtonWithIcon(lang.L("Import folder…"), theme.FolderOpenIcon(), u.importer.chooseFolder),
	)
	if u.opt.SampleLibrary != "" {
		buttons.Add(widget.NewButton(lang.L("Open the sample library"), u.openSampleLibrary))
	}
	return container.NewCenter(container.NewVBox(title, hint, container.NewCenter(buttons)))
}

// openSampleLibrary switches to the sample library, loading the samples into it when empty.
func (u *App) openSampleLibrary() {
	st, err := store.Open(u.opt.SampleLibrary)
	if err != nil {
		u.showError(err)
		return
	}
	if !u.switchLibrary(st) {
		return
	}
	if labels, err := library.Labels(st); err == nil && len(labels) == 0 { // no runs yet
		u.importer.loadDemo()
	}
}

// switchLibrary replaces the open library (Settings → open another). While an import runs
// into the open library it refuses, closing st: closing the library under the import would
// fail the rest of it.
func (u *App) switchLibrary(st *store.Store) bool {
	if u.importer.busy {
		st.Close()
		u.setStatus(lang.L("An import is running; wait for it to finish."))
		u.showInformation(lang.L("Library"), lang.L("An import is running; wait for it to finish."))
		return false
	}
	// A note still being typed goes to the library it was typed in, before the swap.
	u.verdict.reset()
	old := u.st
	u.st = st
	// Remembered without a password: preferences are a plain file.
	u.fyneApp.Preferences().SetString("library.path", store.WithoutPassword(st.Path()))
	u.settings.reload()
	u.settings.libPath.SetText(store.Redacted(st.Path()))
	u.showTitle()
	u.run.reset()     // its run id may name another run in this library
	u.compare.reset() // and its arms other runs
	u.libraryChanged()
	if old != nil {
		old.Close()
	}
	return true
}

// prefLibraryHidden remembers that the sidebar was hidden.
const prefLibraryHidden = "library.hidden"

// toggleLibrary hides the library sidebar, giving its width to the views (a laptop's
// tables and charts), or shows it again (the button at the bottom left, Ctrl+B).
func (u *App) toggleLibrary() {
	hidden := len(u.body.Objects) == 1 && u.body.Objects[0] == u.views
	if hidden {
		u.body.Objects = []fyne.CanvasObject{u.split}
		u.split.Trailing = u.views
		u.split.Refresh()
	} else {
		u.split.Trailing = container.NewStack() // the views have one parent at a time
		u.split.Refresh()
		u.body.Objects = []fyne.CanvasObject{u.views}
	}
	u.body.Refresh()
	u.showLibraryToggle()
	u.fyneApp.Preferences().SetBool(prefLibraryHidden, !hidden)
}

// showLibraryToggle points the sidebar's button the way it would move the sidebar.
func (u *App) showLibraryToggle() {
	if u.libraryShown() {
		u.libraryToggle.SetIcon(theme.NavigateBackIcon())
		u.libraryToggle.SetText(lang.L("Hide the library"))
	} else {
		u.libraryToggle.SetIcon(theme.NavigateNextIcon())
		u.libraryToggle.SetText(lang.L("Library"))
	}
}

// libraryShown is whether the sidebar is on screen.
func (u *App) libraryShown() bool { return u.body.Objects[0] == u.split }

// Window sizes: the first start's (on a screen of unknown size), the most of a screen the
// first start takes, and what a window keeps clear of the screen's edges (title bar, panels).
var (
	defaultWindow = fyne.NewSize(1280, 820)
	largestWindow = fyne.NewSize(2560, 1600)
	screenMargin  = fyne.NewSize(16, 64)
)

// fitWindow is the window size to open with: the remembered size (remembered, when not
// zero) or on first start the most of the screen up to largestWindow, never larger than the
// screen less its margins. A screen of zero size is unknown and changes nothing.
func fitWindow(remembered, screen fyne.Size) fyne.Size {
	want := remembered
	if want.IsZero() {
		want = defaultWindow
		if !screen.IsZero() {
			want = largestWindow
		}
	}
	if screen.IsZero() {
		return want
	}
	room := screen.Subtract(screenMargin)
	return fyne.NewSize(max(min(want.Width, room.Width), 320), max(min(want.Height, room.Height), 240))
}

// FitScreen fits the window to a screen known only once the app runs (the desktop driver
// knows its monitors then).
func (u *App) FitScreen(screen fyne.Size) {
	if screen.IsZero() {
		return
	}
	u.opt.Screen = screen
	u.resize(fitWindow(u.rememberedSize(), screen))
	u.win.CenterOnScreen()
}

// sidebarWidth is as wide as the sidebar gets on a wide window: the rest goes to the tables.
const sidebarWidth = 400

// resize sizes the window and shares its width out: on a wide window the sidebar keeps
// sidebarWidth and the tables beside the charts get more (a Stages row on one line).
func (u *App) resize(size fyne.Size) {
	u.win.Resize(size)
	u.split.SetOffset(min(0.26, float64(sidebarWidth/size.Width)))
	if size.Width >= 1600 {
		u.compare.split.SetOffset(0.62)
	} else {
		u.compare.split.SetOffset(0.56)
	}
}

// rememberedSize is the window size remembered from the last session (zero: none).
func (u *App) rememberedSize() fyne.Size {
	p := u.fyneApp.Preferences()
	return fyne.NewSize(float32(p.Float("window.width")), float32(p.Float("window.height")))
}

func (u *App) restoreWindowSize() {
	p := u.fyneApp.Preferences()
	u.resize(fitWindow(u.rememberedSize(), u.opt.Screen))
	u.win.SetCloseIntercept(func() {
		size := u.win.Canvas().Size()
		p.SetFloat("window.width", float64(size.Width))
		p.SetFloat("window.height", float64(size.Height))
		u.verdict.endSitting()
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
