package gui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// shortcuts binds the keyboard: Ctrl+O import files, Ctrl+Shift+O import a folder, Ctrl+E
// export, Ctrl+1 … Ctrl+4 switch views (Cmd on macOS through fyne's ShortcutDefault).
func (u *App) shortcuts() {
	add := func(key fyne.KeyName, mod fyne.KeyModifier, do func()) {
		u.win.Canvas().AddShortcut(&desktop.CustomShortcut{KeyName: key, Modifier: mod}, func(fyne.Shortcut) { do() })
	}
	mod := fyne.KeyModifierShortcutDefault
	add(fyne.KeyO, mod, u.importer.chooseFiles)
	add(fyne.KeyO, mod|fyne.KeyModifierShift, u.importer.chooseFolder)
	add(fyne.KeyE, mod, u.verdict.exportDialog)
	for i, key := range []fyne.KeyName{fyne.Key1, fyne.Key2, fyne.Key3, fyne.Key4} {
		add(key, mod, func() { u.showView(i) })
	}
}
