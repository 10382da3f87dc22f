package gui

import (
	"fmt"
	"path/filepath"
	"time"

	"fyne.io/fyne/v2"
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

// showExport asks for a format and a scope, then a destination, and exports off the UI thread.
func showExport(u *App, current int64) {
	labels := make([]string, len(exportChoices))
	for i, c := range exportChoices {
		labels[i] = lang.L(c.label)
	}
	format := widget.NewRadioGroup(labels, nil)
	format.SetSelected(labels[0])
	scope := widget.NewRadioGroup([]string{lang.L("This comparison"), lang.L("All saved comparisons")}, nil)
	scope.SetSelected(lang.L("This comparison"))
	if current == 0 {
		scope.SetSelected(lang.L("All saved comparisons"))
	}
	requests := widget.NewCheck(lang.L("Include every request (xlsx)"), nil)
	dialog.ShowForm(lang.L("Export"), lang.L("Choose destination…"), lang.L("Cancel"), []*widget.FormItem{
		widget.NewFormItem(lang.L("Format"), format),
		widget.NewFormItem(lang.L("Comparisons"), scope),
		widget.NewFormItem("", requests),
	}, func(ok bool) {
		if !ok {
			return
		}
		var choice = exportChoices[0]
		for i, l := range labels {
			if l == format.Selected {
				choice = exportChoices[i]
			}
		}
		// The save dialog has asked before replacing a file; the library itself stays refused.
		opt := library.ExportOptions{Requests: requests.Checked, Force: true}
		if scope.Selected == lang.L("This comparison") && current != 0 {
			opt.IDs = []int64{current}
		}
		run := func(dest string) {
			u.setStatus(lang.L("Exporting…"))
			st := u.st
			go func() {
				err := library.Export(st, choice.format, dest, opt)
				onUI(func() {
					if err != nil {
						dialog.ShowError(err, u.win)
						u.setStatus("")
						return
					}
					u.setStatus(fmt.Sprintf(lang.L("Exported to %s"), dest))
				})
			}()
		}
		if choice.folder {
			dialog.ShowFolderOpen(func(l fyne.ListableURI, err error) {
				if err == nil && l != nil {
					run(filepath.Join(l.Path(), "benchlens-"+choice.format+"-"+time.Now().Format("20060102-150405")))
				}
			}, u.win)
			return
		}
		d := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
			if err != nil || w == nil {
				return
			}
			path := w.URI().Path()
			w.Close()
			run(path)
		}, u.win)
		d.SetFileName("benchlens." + choice.format)
		d.SetFilter(storage.NewExtensionFileFilter([]string{"." + choice.format}))
		d.Show()
	}, u.win)
}
