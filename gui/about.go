package gui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"benchlens/library"
)

// helpMenu is the window's Help menu, with the About dialog.
// showAbout says which benchlens this is, as `benchlens --version` does: what a report
// should cite.
func (u *App) showAbout() {
	text := widget.NewLabelWithStyle(library.Version().Text(), fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
	u.showDialog(dialog.NewCustom(lang.L("About benchlens"), lang.L("Close"), text, u.win))
}
