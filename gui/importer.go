package gui

import (
	"benchlens/internal/textsafe"
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"benchlens/library"
)

// importer brings bundles in: dropped anywhere on the window, or chosen in a dialog. It runs
// off the UI thread with a progress bar, and lists the refused files with their reasons.
type importer struct {
	u    *App
	bar  *fyne.Container
	prog *widget.ProgressBar
	busy bool
	last library.Report
	// current is the import plan on screen, until the analyst imports or cancels.
	current *importPlan
}

func newImporter(u *App) *importer {
	im := &importer{u: u, prog: widget.NewProgressBar()}
	im.bar = container.NewStack(im.prog)
	im.bar.Hide()
	return im
}

// onDropped is the window's drop handler: files, folders and archives.
func (im *importer) onDropped(_ fyne.Position, uris []fyne.URI) {
	var paths []string
	for _, uri := range uris {
		if uri.Scheme() == "file" {
			paths = append(paths, uri.Path())
		}
	}
	im.plan(paths)
}

// chooseFiles opens the picker on files (and folders) to tick; chooseFolder on one folder.
func (im *importer) chooseFiles() { im.u.showPicker(false, im.plan) }

func (im *importer) chooseFolder() { im.u.showPicker(true, im.plan) }

// importPaths imports in the background with opt's labels; done (if set) runs on the UI
// thread afterwards.
func (im *importer) importPaths(paths []string, opt library.Options, done func(library.Report)) {
	if len(paths) == 0 {
		return
	}
	st := im.u.st // the library open now, even if another is opened while this one imports
	im.run(lang.L("Importing")+" "+strings.Join(shortPaths(paths), ", "), func(progress library.Options) library.Report {
		opt.Progress = progress.Progress
		return library.Import(st, paths, opt)
	}, done)
}

// loadDemo imports the built-in sample bundles (into the sample library only).
func (im *importer) loadDemo() {
	st := im.u.st
	im.run(lang.L("Loading the sample library"), func(library.Options) library.Report {
		return library.LoadDemo(st)
	}, nil)
}

func (im *importer) run(what string, work func(library.Options) library.Report, done func(library.Report)) {
	if im.busy {
		im.u.setStatus(lang.L("An import is running; wait for it to finish."))
		return
	}
	im.busy = true
	im.prog.SetValue(0)
	im.bar.Show()
	im.u.setStatus(what + "…")
	opt := library.Options{Progress: func(done, total int, name string) {
		onUI(func() {
			im.prog.SetValue(float64(done) / float64(max(total, 1)))
			im.u.setStatus(fmt.Sprintf("%s… %d/%d %s", what, done, total, shortPath(name)))
		})
	}}
	go func() {
		rep := work(opt)
		onUI(func() {
			im.last = rep
			im.bar.Hide()
			if len(rep.Errors)+len(rep.Skipped) > 0 || rep.Attached > 0 {
				im.showRefused(rep)
			}
			im.u.setStatus(importSummary(rep))
			im.u.libraryChanged()
			if done != nil {
				done(rep)
			}
			// Busy until the views have taken the new runs in: the arms they pick
			// must not land on top of the analyst's (or a test's) next choice.
			im.busy = false
		})
	}()
}

// importSummary is the status line after an import: what was added, found stored already (and
// the files newly attached to those runs), refused and left unread.
func importSummary(rep library.Report) string {
	msg := plural(len(rep.Added), lang.L("Imported %d run"), lang.L("Imported %d runs"))
	if len(rep.Existing) > 0 {
		msg += fmt.Sprintf(lang.L(", %d already in the library"), len(rep.Existing))
	}
	if len(rep.Repeated) > 0 {
		msg += fmt.Sprintf(lang.L(", %d found twice (stored once)"), len(rep.Repeated))
	}
	if rep.Attached > 0 {
		msg += fmt.Sprintf(lang.L(", %d files newly attached to them"), rep.Attached)
	}
	if len(rep.Errors) > 0 {
		msg += fmt.Sprintf(lang.L(", %d refused"), len(rep.Errors))
	}
	if len(rep.Skipped) > 0 {
		msg += fmt.Sprintf(lang.L(", %d not read"), len(rep.Skipped))
	}
	return msg
}

// showRefused lists every refused input, then every input left unread, with its one-line
// reason; when files joined runs already stored, it first names them (the status line is
// soon replaced by the library's count). Each file is listed and counted once (a file both
// refused and skipped is a refusal), and each row is as high as its wrapped text.
func (im *importer) showRefused(rep library.Report) {
	var lines []string
	if rep.Attached > 0 {
		for _, line := range rep.Already {
			lines = append(lines, lang.L("already:")+" "+line)
		}
	}
	for _, line := range rep.Repeats {
		lines = append(lines, lang.L("found twice:")+" "+line)
	}
	refused, skipped := onceEach(rep.Errors, nil), onceEach(rep.Skipped, rep.Errors)
	for _, e := range refused {
		lines = append(lines, lang.L("refused:")+" "+textsafe.Quote(e))
	}
	for _, e := range skipped {
		lines = append(lines, lang.L("not read:")+" "+textsafe.Quote(e))
	}
	rows := container.NewVBox()
	for i, line := range lines {
		if i == maxReportRows {
			rows.Add(widget.NewLabel(fmt.Sprintf(lang.L("… and %d more"), len(lines)-i)))
			break
		}
		l := widget.NewLabel(line)
		l.Wrapping = fyne.TextWrapWord
		rows.Add(l)
	}
	scroll := vscroll(rows)
	scroll.SetMinSize(fyne.NewSize(640, 260))
	var body fyne.CanvasObject = scroll
	if len(rep.Unapplied) > 0 {
		body = container.NewBorder(im.applyManifestsButton(rep.Unapplied, rows), nil, nil, nil, scroll)
	}
	title := plural(len(refused), lang.L("%d input refused"), lang.L("%d inputs refused"))
	if len(skipped) > 0 {
		title += fmt.Sprintf(lang.L(", %d not read"), len(skipped))
	}
	if len(refused)+len(skipped) == 0 {
		title = importSummary(rep)
	}
	im.u.showDialog(dialog.NewCustom(title, lang.L("Close"), body, im.u.win))
}

// applyManifestsButton applies, when tapped, the manifests this import left unapplied beside
// runs already stored (library.ReapplyManifests), and puts what changed, a line per run, at
// the top of the report's rows.
func (im *importer) applyManifestsButton(bundles []string, rows *fyne.Container) *widget.Button {
	var b *widget.Button
	b = widget.NewButton(lang.L("Apply the manifests to the stored runs"), func() {
		if im.busy {
			im.u.setStatus(lang.L("An import is running; wait for it to finish."))
			return
		}
		im.busy = true
		b.Disable()
		st := im.u.st
		go func() {
			rep := library.ReapplyManifests(st, bundles, library.Options{})
			onUI(func() {
				im.busy = false
				var lines []string
				for _, line := range rep.Lines {
					lines = append(lines, lang.L("applied:")+" "+line)
				}
				for _, err := range rep.Errors {
					lines = append(lines, lang.L("refused:")+" "+textsafe.Quote(err.Error()))
				}
				for i, line := range lines {
					l := widget.NewLabel(line)
					l.Wrapping = fyne.TextWrapWord
					rows.Objects = slices.Insert(rows.Objects, i, fyne.CanvasObject(l))
				}
				rows.Refresh()
				im.u.setStatus(plural(len(rep.Changed), lang.L("Manifests applied: %d run changed"), lang.L("Manifests applied: %d runs changed")))
				if len(rep.Changed) > 0 {
					im.u.libraryChanged()
				}
			})
		}()
	})
	return b
}

// maxReportRows bounds the import report's rows: a folder of thousands of stray files.
const maxReportRows = 400

// onceEach is each error's text once, leaving out those about a file that not names.
func onceEach(errs, not []error) []string {
	seen := map[string]bool{}
	for _, e := range not {
		seen[reportKey(e.Error())] = true
	}
	var out []string
	for _, e := range errs {
		text := e.Error()
		if k := reportKey(text); !seen[k] {
			seen[k] = true
			out = append(out, text)
		}
	}
	return out
}

// reportKey is the file an import error is about: its text up to the first ": " when that
// reads as a path, else the whole text.
func reportKey(text string) string {
	if file, _, ok := strings.Cut(text, ": "); ok && !strings.ContainsAny(file, " \t") && strings.ContainsAny(file, "./") {
		return file
	}
	return text
}

func shortPaths(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = shortPath(p)
	}
	return out
}
