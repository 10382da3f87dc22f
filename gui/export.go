package gui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

	"benchlens/library"
)

// exportChoices are the formats offered, with whether they write a folder.
var exportChoices = []struct {
	label, format string
	folder        bool
}{
	{"Excel workbook (.xlsx)", library.FormatXLSX, false},
	{"YAML record (.yaml)", library.FormatYAML, false},
	{"Markdown summary (.md)", library.FormatMD, false},
	{"CSV tables (folder)", library.FormatCSV, true},
	{"Charts as PNG and SVG (folder)", library.FormatPNG, true},
}

// exportName is the default name of an export in a format: a file, or a new dated folder,
// named after the comparison ("fp16-vs-fp8") when one is exported.
func exportName(format string, folder bool, what string) string {
	base := "benchlens"
	if what != "" {
		base += "-" + what
	}
	if folder {
		return base + "-" + format + "-" + time.Now().Format("20060102-150405")
	}
	return base + "." + format
}

// comparisonName names a saved comparison for a file name: "fp16-vs-fp8", "" when unknown.
func comparisonName(u *App, id int64) string {
	if id == 0 {
		return ""
	}
	c, _, err := library.SavedRecord(u.st, id)
	if err != nil {
		return ""
	}
	return fileSafe(c.Baseline) + "-vs-" + fileSafe(c.Candidate)
}

// fileSafe is s for a file name: no path separators, colons, spaces or control characters.
func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || r == ' ' || r < 32 {
			return '_'
		}
		return r
	}, s)
}

// folderField is a folder's path to type or paste, with "Choose…" beside it; it starts at dir,
// else at the last export's folder, else at home.
type folderField struct {
	entry *widget.Entry
	row   fyne.CanvasObject
}

func (u *App) folderField(dir string) folderField {
	folder := widget.NewEntry()
	if u.exportDir == "" {
		u.exportDir, _ = os.UserHomeDir()
	}
	folder.SetText(u.exportDir)
	if dir != "" {
		folder.SetText(dir)
	}
	browse := widget.NewButton(lang.L("Choose…"), func() {
		d := dialog.NewFolderOpen(func(l fyne.ListableURI, err error) {
			if err == nil && l != nil {
				folder.SetText(l.Path())
			}
		}, u.win)
		if l, err := storage.ListerForURI(storage.NewFileURI(folder.Text)); err == nil {
			d.SetLocation(l)
		}
		d.Show()
	})
	return folderField{folder, container.NewBorder(nil, nil, nil, browse, folder)}
}

// exportForm is what the export dialog was filled with, to open it again as it was when the
// export failed (a folder that cannot be written to).
type exportForm struct {
	current  int64
	format   int // index in exportChoices
	all      bool
	requests bool
	folder   string
	name     string
	what     string // the comparison's name in default file names
}

// showExport asks for a format, a scope, a folder and a name, then exports off the UI thread.
// The destination is a folder picker plus a name, never Fyne's save dialog: that dialog
// creates or truncates the chosen file before library.Export could refuse it, so picking the
// library itself would destroy it.
func showExport(u *App, current int64) {
	what := comparisonName(u, current)
	showExportForm(u, exportForm{current: current, all: current == 0, what: what, name: exportName(exportChoices[0].format, exportChoices[0].folder, what)})
}

// showExportForm opens the export dialog filled in as f says.
func showExportForm(u *App, f exportForm) {
	current := f.current
	labels := make([]string, len(exportChoices))
	for i, c := range exportChoices {
		labels[i] = lang.L(c.label)
	}
	name := widget.NewEntry()
	choice, chosen := exportChoices[f.format], f.format
	filling := true // the form is being filled as it was: the name is kept
	var scope *widget.RadioGroup
	format := widget.NewRadioGroup(labels, func(sel string) {
		for i, l := range labels {
			if l == sel {
				choice, chosen = exportChoices[i], i
			}
		}
		if !filling {
			what := f.what
			if scope != nil && scope.Selected != lang.L("This comparison") {
				what = ""
			}
			name.SetText(exportName(choice.format, choice.folder, what))
		}
	})
	format.SetSelected(labels[f.format])
	name.SetText(f.name)
	filling = false
	scope = widget.NewRadioGroup([]string{lang.L("This comparison"), lang.L("All saved comparisons")}, nil)
	scope.SetSelected(lang.L("This comparison"))
	if current == 0 || f.all {
		scope.SetSelected(lang.L("All saved comparisons"))
	}
	requests := widget.NewCheck(lang.L("Include every request (xlsx)"), nil)
	requests.SetChecked(f.requests)
	ff := u.folderField(f.folder)
	folder := ff.entry
	u.showDialog(dialog.NewForm(lang.L("Export"), lang.L("Export"), lang.L("Cancel"), []*widget.FormItem{
		widget.NewFormItem(lang.L("Format"), format),
		widget.NewFormItem(lang.L("Comparisons"), scope),
		widget.NewFormItem("", requests),
		widget.NewFormItem(lang.L("Folder"), ff.row),
		widget.NewFormItem(lang.L("Name"), name),
	}, func(ok bool) {
		if !ok || name.Text == "" {
			return
		}
		opt := library.ExportOptions{Requests: requests.Checked}
		if scope.Selected == lang.L("This comparison") && current != 0 {
			opt.IDs = []int64{current}
		}
		u.exportDir = folder.Text
		again := exportForm{current: current, what: f.what, format: chosen, all: scope.Selected != lang.L("This comparison"),
			requests: requests.Checked, folder: folder.Text, name: name.Text}
		u.exportTo(choice.format, filepath.Join(folder.Text, name.Text), opt, func() { showExportForm(u, again) })
	}, u.win))
}

// exportTo exports to dest: the library and its side files are refused outright, an existing
// file is replaced only after the analyst says so. A folder that cannot be written to is
// said so in words, and retry (when set) opens the export dialog again as it was.
func (u *App) exportTo(format, dest string, opt library.ExportOptions, retry func()) {
	st := u.st
	u.writeTo(dest, func(replace bool) error {
		opt.Force = opt.Force || replace
		return library.Export(st, format, dest, opt)
	}, retry)
}

// writeTo runs write (off the UI thread) to make dest, as every export of the app does: the
// library and its side files refused, an existing file replaced only after the analyst says
// so (write is then told to replace it), a folder that cannot be written to said so in
// words with retry (when set) opening the dialog again as it was.
func (u *App) writeTo(dest string, write func(replace bool) error, retry func()) {
	if err := library.CheckTarget(u.st.Path(), dest); err != nil {
		u.showError(err)
		return
	}
	if fi, err := os.Stat(dest); err == nil && !fi.IsDir() {
		u.showConfirm(lang.L("Replace?"), fmt.Sprintf(lang.L("%s exists. Replace it?"), dest), func(yes bool) {
			if yes {
				u.runExport(dest, func() error { return write(true) }, retry)
			}
		})
		return
	}
	u.runExport(dest, func() error { return write(false) }, retry)
}

// runExport writes the export off the UI thread and reports the outcome.
func (u *App) runExport(dest string, write func() error, retry func()) {
	u.setStatus(lang.L("Exporting…"))
	go func() {
		err := write()
		onUI(func() {
			if err != nil {
				u.setStatus("")
				if msg, ok := cantWrite(filepath.Dir(dest), err); ok {
					u.showErrorThen(errors.New(msg), retry)
					return
				}
				u.showError(err)
				return
			}
			u.setStatus(fmt.Sprintf(lang.L("Exported to %s"), dest))
		})
	}()
}
