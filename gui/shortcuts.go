package gui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/lang"
)

// mainMenu binds the keyboard through the window's menu: Ctrl+O import files, Ctrl+Shift+O
// import a folder, Ctrl+E export what is on screen, Ctrl+1 … Ctrl+4 switch views, Ctrl+B hides or shows the library sidebar (Cmd on
// macOS through fyne's ShortcutDefault). Menu shortcuts are dispatched before the focused
// widget sees the keys, so they work while a text field has focus, where canvas shortcuts
// are swallowed by the entry.
func (u *App) mainMenu() *fyne.MainMenu {
	mod := fyne.KeyModifierShortcutDefault
	item := func(label string, key fyne.KeyName, m fyne.KeyModifier, do func()) *fyne.MenuItem {
		it := fyne.NewMenuItem(label, do)
		if key != "" {
			it.Shortcut = &desktop.CustomShortcut{KeyName: key, Modifier: m}
		}
		return it
	}
	file := fyne.NewMenu(lang.L("File"),
		item(lang.L("Import files…"), fyne.KeyO, mod, u.importer.chooseFiles),
		item(lang.L("Import folder…"), fyne.KeyO, mod|fyne.KeyModifierShift, u.importer.chooseFolder),
		item(lang.L("Export…"), fyne.KeyE, mod, u.exportOnScreen),
	)
	if u.opt.OpenLibrary != nil || u.opt.SampleLibrary != "" {
		file.Items = append(file.Items, fyne.NewMenuItemSeparator())
	}
	if u.opt.OpenLibrary != nil {
		file.Items = append(file.Items, item(lang.L("Open another library…"), "", 0, u.settings.onOpenLibrary),
			item(lang.L("Open a team library…"), "", 0, func() { u.showTeamLibraryDialog() }))
	}
	if u.opt.SampleLibrary != "" {
		file.Items = append(file.Items, item(lang.L("Open the sample library"), "", 0, u.openSampleLibrary))
	}
	view := fyne.NewMenu(lang.L("View"))
	for i, key := range []fyne.KeyName{fyne.Key1, fyne.Key2, fyne.Key3, fyne.Key4} {
		view.Items = append(view.Items, item(u.tabs.Items[i].Text, key, mod, func() { u.showView(i) }))
	}
	view.Items = append(view.Items, fyne.NewMenuItemSeparator(), item(lang.L("Show or hide the library"), fyne.KeyB, mod, u.toggleLibrary))
	return fyne.NewMainMenu(file, view, u.helpMenu())
}

// exportOnScreen exports what the analyst is looking at: from Compare the comparison on
// screen (saved first, once), elsewhere the comparison open in Verdict.
func (u *App) exportOnScreen() {
	if u.tabs.SelectedIndex() == viewCompare && u.compare.record != nil {
		id, err := u.compare.saveOnce()
		if err != nil {
			u.setStatus(lang.L("Not saved") + ": " + err.Error())
			return
		}
		showExport(u, id)
		return
	}
	u.verdict.exportDialog()
}
