package gui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// picker chooses what to import: several files and folders at once (ticked), a path typed
// or pasted into its field (Enter opens a folder or takes a file), typing the start of a name
// jumps to it, the folder it was last in opens again, and the files of a folder show while a
// folder is being chosen. Fyne's own file dialog has none of these and cuts long names; a
// lab's result files are named by their whole configuration.
type picker struct {
	u       *App
	folders bool // choosing a folder: files are shown, not ticked
	dir     string
	entries []os.DirEntry
	ticked  map[string]bool // full paths
	jumped  int             // the entry typing jumped to, -1 none
	path    *escEntry
	list    *widget.List
	status  *widget.Label
	choose  *widget.Button
	dialog  dialog.Dialog
	done    func(paths []string)
}

// prefPickerFolder is the folder the picker was last in.
const prefPickerFolder = "picker.folder"

// showPicker opens the picker; done gets the paths chosen.
func (u *App) showPicker(folders bool, done func(paths []string)) *picker {
	p := &picker{u: u, folders: folders, ticked: map[string]bool{}, done: done}
	p.path = newEscEntry(u)
	p.path.OnSubmitted = p.onSubmitted
	p.path.OnChanged = p.onTyped
	p.status = widget.NewLabel("")
	p.list = widget.NewList(func() int { return len(p.entries) }, p.newRow, p.updateRow)
	p.list.OnSelected = p.onTapped
	up := widget.NewButtonWithIcon("", theme.MoveUpIcon(), func() { p.open(filepath.Dir(p.dir)) })
	home := widget.NewButtonWithIcon("", theme.HomeIcon(), func() {
		if h, err := os.UserHomeDir(); err == nil {
			p.open(h)
		}
	})
	title, action := lang.L("Import files…"), lang.L("Import the ticked")
	if folders {
		title, action = lang.L("Import folder…"), lang.L("Import this folder")
	}
	p.choose = widget.NewButton(action, p.onChoose)
	p.choose.Importance = widget.HighImportance
	cancel := widget.NewButton(lang.L("Cancel"), func() { p.dialog.Hide() })
	top := container.NewBorder(nil, nil, container.NewHBox(up, home), nil, p.path)
	bottom := container.NewBorder(nil, nil, nil, container.NewHBox(cancel, p.choose), p.status)
	d := dialog.NewCustomWithoutButtons(title, container.NewBorder(top, bottom, nil, nil, p.list), u.win)
	p.dialog = d
	size := u.win.Canvas().Size()
	d.Resize(fyne.NewSize(max(size.Width*0.8, 480), max(size.Height*0.8, 360)))
	start := u.fyneApp.Preferences().String(prefPickerFolder)
	if st, err := os.Stat(start); start == "" || err != nil || !st.IsDir() {
		start, _ = os.Getwd()
	}
	p.open(start)
	u.showDialog(d)
	u.win.Canvas().Focus(p.path)
	return p
}

// open shows a folder's folders, then its files, by name.
func (p *picker) open(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		p.status.SetText(fmt.Sprintf(lang.L("Can't open %s: %v"), dir, err))
		return
	}
	slices.SortStableFunc(entries, func(a, b os.DirEntry) int {
		if a.IsDir() != b.IsDir() {
			if a.IsDir() {
				return -1
			}
			return 1
		}
		return strings.Compare(strings.ToLower(a.Name()), strings.ToLower(b.Name()))
	})
	p.dir, p.entries, p.jumped = dir, entries, -1
	p.u.fyneApp.Preferences().SetString(prefPickerFolder, dir)
	p.path.OnChanged = nil
	p.path.SetText(withSeparator(dir))
	p.path.CursorColumn = len([]rune(p.path.Text))
	// Selected, so a path typed or pasted replaces it and a name typed jumps in the folder.
	p.path.TypedShortcut(&fyne.ShortcutSelectAll{})
	p.path.OnChanged = p.onTyped
	p.list.UnselectAll()
	p.list.Refresh()
	p.list.ScrollToTop()
	p.showCount()
}

func withSeparator(dir string) string {
	if strings.HasSuffix(dir, string(filepath.Separator)) {
		return dir
	}
	return dir + string(filepath.Separator)
}

func (p *picker) newRow() fyne.CanvasObject {
	check := widget.NewCheck("", nil)
	return container.NewBorder(nil, nil, container.NewHBox(check, widget.NewIcon(theme.FolderIcon())), nil, widget.NewLabel(""))
}

func (p *picker) updateRow(i widget.ListItemID, o fyne.CanvasObject) {
	if i >= len(p.entries) {
		return
	}
	e := p.entries[i]
	full := filepath.Join(p.dir, e.Name())
	row := o.(*fyne.Container)
	label := row.Objects[0].(*widget.Label)
	left := row.Objects[1].(*fyne.Container)
	check, icon := left.Objects[0].(*widget.Check), left.Objects[1].(*widget.Icon)
	name := e.Name()
	if e.IsDir() {
		icon.SetResource(theme.FolderIcon())
		name += string(filepath.Separator)
	} else {
		icon.SetResource(theme.FileIcon())
	}
	label.SetText(name)
	label.Importance = widget.MediumImportance
	check.OnChanged = nil
	check.SetChecked(p.ticked[full])
	if p.folders {
		check.Hide()
		if !e.IsDir() {
			label.Importance = widget.LowImportance // shown, to see what the folder holds
		}
	} else {
		check.Show()
		check.OnChanged = func(on bool) { p.tick(full, on) }
	}
	label.Refresh()
}

// onTapped opens a folder; in files mode a file's tap ticks it (or unticks it).
func (p *picker) onTapped(i widget.ListItemID) {
	p.list.Unselect(i)
	if i >= len(p.entries) {
		return
	}
	e := p.entries[i]
	full := filepath.Join(p.dir, e.Name())
	switch {
	case e.IsDir():
		p.open(full)
	case !p.folders:
		p.tick(full, !p.ticked[full])
		p.list.RefreshItem(i)
	}
}

func (p *picker) tick(path string, on bool) {
	if on {
		p.ticked[path] = true
	} else {
		delete(p.ticked, path)
	}
	p.showCount()
}

// showCount says what is ticked and what the folder holds.
func (p *picker) showCount() {
	if p.folders {
		p.status.SetText(plural(len(p.entries), lang.L("%d entry in this folder"), lang.L("%d entries in this folder")))
		return
	}
	p.status.SetText(plural(len(p.ticked), lang.L("%d ticked"), lang.L("%d ticked")))
	if len(p.ticked) == 0 {
		p.choose.Disable()
	} else {
		p.choose.Enable()
	}
}

// onTyped follows the path field: a folder typed in full opens, the start of a name in the
// folder jumps to the first entry it begins.
func (p *picker) onTyped(text string) {
	if text == "" {
		return
	}
	if i := strings.LastIndex(text, "//"); i > 0 { // a path typed after the folder's
		text = text[i+1:]
	}
	dir, prefix := filepath.Split(text)
	if dir == "" {
		dir = withSeparator(p.dir)
	}
	if filepath.Clean(dir) != filepath.Clean(p.dir) {
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			p.reopen(filepath.Clean(dir), text)
		}
		return
	}
	p.jump(prefix)
}

// reopen opens dir while the analyst types on: the field keeps what was typed.
func (p *picker) reopen(dir, typed string) {
	p.open(dir)
	p.path.OnChanged = nil
	p.path.SetText(typed)
	p.path.CursorColumn = len([]rune(typed))
	p.path.OnChanged = p.onTyped
	_, prefix := filepath.Split(typed)
	p.jump(prefix)
}

// jump scrolls to and marks the first entry whose name starts with prefix (any case).
func (p *picker) jump(prefix string) {
	if prefix == "" {
		return
	}
	for i, e := range p.entries {
		if strings.HasPrefix(strings.ToLower(e.Name()), strings.ToLower(prefix)) {
			p.list.ScrollTo(i)
			p.jumped = i
			p.list.OnSelected = nil
			p.list.Select(i) // shown as the one Enter takes
			p.list.OnSelected = p.onTapped
			return
		}
	}
}

// onSubmitted takes what the field names: a folder opens (in folder mode, a second Enter
// chooses it), a file is ticked and, with nothing else ticked, imported.
func (p *picker) onSubmitted(text string) {
	path := strings.TrimSpace(text)
	if i := strings.LastIndex(path, "//"); i > 0 {
		path = path[i+1:]
	}
	if path == "" {
		return
	}
	if strings.HasPrefix(path, "~") {
		if h, err := os.UserHomeDir(); err == nil {
			path = filepath.Join(h, path[1:])
		}
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(p.dir, path)
	}
	st, err := os.Stat(path)
	if err != nil {
		// The start of a name: take the entry it jumped to.
		_, prefix := filepath.Split(text)
		for _, e := range p.entries {
			if prefix != "" && strings.HasPrefix(strings.ToLower(e.Name()), strings.ToLower(prefix)) {
				p.onSubmitted(filepath.Join(p.dir, e.Name()))
				return
			}
		}
		p.status.SetText(fmt.Sprintf(lang.L("%s is not there"), path))
		return
	}
	switch {
	case st.IsDir() && filepath.Clean(path) != filepath.Clean(p.dir):
		p.open(filepath.Clean(path))
	case st.IsDir():
		if p.folders {
			p.onChoose()
		}
	case p.folders:
		p.open(filepath.Dir(path))
	default:
		p.tick(path, true)
		p.list.Refresh()
		if len(p.ticked) == 1 {
			p.onChoose()
		}
	}
}

// onChoose hands over what was chosen: the ticked paths, or the folder shown.
func (p *picker) onChoose() {
	var paths []string
	if p.folders {
		paths = []string{p.dir}
	} else {
		for path := range p.ticked {
			paths = append(paths, path)
		}
		slices.Sort(paths)
	}
	if len(paths) == 0 {
		return
	}
	p.dialog.Hide()
	p.done(paths)
}
