package gui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"benchlens/library"
)

// menu gives the window its Help menu with the About dialog.
func (u *App) menu() {
	about := fyne.NewMenuItem(lang.L("About benchlens"), u.showAbout)
	u.win.SetMainMenu(fyne.NewMainMenu(fyne.NewMenu(lang.L("Help"), about)))
}

// showAbout says which benchlens this is, as `benchlens --version` does: what a report
// should cite.
func (u *App) showAbout() {
	text := widget.NewLabelWithStyle(library.Version().Text(), fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
	dialog.ShowCustom(lang.L("About benchlens"), lang.L("Close"), text, u.win)
}
