package gui

import (
	"errors"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"benchlens/store"
)

// teamLibraryDialog asks for a team library's postgres:// URL and opens it off the UI thread
// (a server may take seconds to answer, or not at all), switching to it once it is open. The
// password is not remembered with the URL: the client reads PGPASSWORD or ~/.pgpass, as psql.
type teamLibraryDialog struct {
	u   *App
	url *escEntry
	d   *dialog.FormDialog
}

func (u *App) showTeamLibraryDialog() *teamLibraryDialog {
	t := &teamLibraryDialog{u: u, url: newEscEntry(u)}
	t.url.SetPlaceHolder("postgres://user@host:5432/benchlens")
	if cur := u.st.Path(); store.IsPostgres(cur) {
		t.url.SetText(store.WithoutPassword(cur))
	}
	t.url.Validator = validTeamURL
	item := widget.NewFormItem(lang.L("PostgreSQL URL"), t.url)
	item.HintText = lang.L("The password is read from PGPASSWORD or ~/.pgpass and is never remembered by benchlens.")
	t.d = dialog.NewForm(lang.L("Open a team library"), lang.L("Open"), lang.L("Cancel"), []*widget.FormItem{item},
		func(ok bool) {
			if ok {
				t.open(strings.TrimSpace(t.url.Text))
			}
		}, u.win)
	t.url.OnSubmitted = func(string) { t.d.Submit() } // Enter opens, as the button does
	u.showDialog(t.d)
	t.d.Resize(fyne.NewSize(640, 240))
	u.win.Canvas().Focus(t.url) // type the URL straight away
	return t
}

// validTeamURL accepts postgres:// and postgresql:// URLs.
func validTeamURL(s string) error {
	if !store.IsPostgres(strings.TrimSpace(s)) {
		return errors.New(lang.L("a postgres:// or postgresql:// URL"))
	}
	return nil
}

// open connects in the background and switches to the library on the UI thread.
func (t *teamLibraryDialog) open(location string) {
	u := t.u
	u.setStatus(lang.L("Opening the team library…") + " " + store.Redacted(location))
	go func() {
		st, err := u.opt.OpenLibrary(location)
		onUI(func() {
			if err != nil {
				u.setStatus(lang.L("Team library not opened") + ": " + err.Error())
				u.showError(err)
				return
			}
			u.switchLibrary(st)
		})
	}()
}
