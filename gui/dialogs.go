package gui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// showDialog shows d and keeps it on the stack Escape closes from the top: every dialog of the
// app goes through here, so Escape closes each as Cancel would. Focus leaves the window's
// fields, so the Escape reaches the window (a field inside a dialog is an escEntry).
func (u *App) showDialog(d dialog.Dialog) { u.showDialogThen(d, nil) }

// showDialogThen is showDialog with then (when set) run once d has closed.
func (u *App) showDialogThen(d dialog.Dialog, then func()) {
	u.dialogs = append(u.dialogs, d)
	d.SetOnClosed(func() {
		if then != nil {
			defer then()
		}
		for i := len(u.dialogs) - 1; i >= 0; i-- {
			if u.dialogs[i] == d {
				u.dialogs = append(u.dialogs[:i], u.dialogs[i+1:]...)
				break
			}
		}
	})
	d.Show()
	u.win.Canvas().Unfocus()
}

// escape closes the newest open dialog; it reports whether there was one.
func (u *App) escape() bool {
	if len(u.dialogs) == 0 {
		return false
	}
	u.dialogs[len(u.dialogs)-1].Hide()
	return true
}

// onTypedKey is the window's key handler while no field has focus.
func (u *App) onTypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape {
		u.escape()
		return
	}
	if u.popped != nil { // a chart open large: + − 0 zoom it
		u.popped.typedKey(ev.Name)
	}
}

// escEntry is a text field whose Escape closes the dialog it is in (a focused widget.Entry
// keeps the key to itself).
type escEntry struct {
	widget.Entry
	u *App
}

func newEscEntry(u *App) *escEntry {
	e := &escEntry{u: u}
	e.ExtendBaseWidget(e)
	return e
}

func (e *escEntry) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape && e.u.escape() {
		return
	}
	e.Entry.TypedKey(ev)
}

// showError shows err in a dialog Escape closes.
func (u *App) showError(err error) { u.showDialog(dialog.NewError(err, u.win)) }

// showInformation shows a message in a dialog Escape closes.
func (u *App) showInformation(title, msg string) {
	u.showDialog(dialog.NewInformation(title, msg, u.win))
}

// showConfirm asks a yes/no question in a dialog Escape closes (as No).
func (u *App) showConfirm(title, msg string, answer func(bool)) {
	u.showDialog(dialog.NewConfirm(title, msg, answer, u.win))
}

// plural is n with the singular or plural wording of what it counts: "1 run", "2 runs".
// Both are translated texts holding one %d.
func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf(one, n)
	}
	return fmt.Sprintf(many, n)
}

// showErrorThen shows err; then (when set) runs once the analyst has closed it.
func (u *App) showErrorThen(err error, then func()) {
	u.showDialogThen(dialog.NewError(err, u.win), then)
}
