package gui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"benchlens/library"
	"benchlens/model"
)

// importPlan is the dialog shown before an import stores anything: what was found, grouped
// into the arms it would form, each with a label (the folder's name by default, editable) and a
// role, and the ways to split it (by subfolder, by model, by the manifests' labels). A lab's
// folder of both arms, or of sixty experiments, becomes the arms the lab meant, not one.
type importPlan struct {
	im    *importer
	paths []string
	plan  library.Plan
	by    library.LabelBy

	split  *widget.Select
	rows   *fyne.Container
	hint   *widget.Label
	labels map[string]*escEntry      // by group key
	roles  map[string]*widget.Select // by group key
	dialog dialog.Dialog
}

// splitNames are the LabelBy choices as the dialog offers them, in library.LabelBys' order.
func splitNames() []string {
	return []string{lang.L("one arm per imported folder"), lang.L("one arm per subfolder"),
		lang.L("one arm per model (or precision)"), lang.L("one arm per manifest label")}
}

// keepRole is the role choice that keeps what the manifests say (else other).
func keepRole() string { return lang.L("as the manifest says") }

// plan reads what paths hold off the UI thread, then shows the plan; an input of no runs at all
// goes straight to the import, whose report says why.
func (im *importer) plan(paths []string) {
	if len(paths) == 0 {
		return
	}
	if im.busy {
		im.u.setStatus(lang.L("An import is running; wait for it to finish."))
		return
	}
	im.busy = true
	st := im.u.st
	im.u.setStatus(lang.L("Reading") + " " + strings.Join(shortPaths(paths), ", ") + "…")
	go func() {
		plan := library.PlanImport(st, paths, library.Options{}.Limits)
		onUI(func() {
			im.busy = false
			if plan.Runs() == 0 {
				im.importPaths(paths, library.Options{}, nil)
				return
			}
			im.showPlan(paths, plan)
		})
	}()
}

// showPlan opens the dialog over what was read.
func (im *importer) showPlan(paths []string, plan library.Plan) {
	p := &importPlan{im: im, paths: paths, plan: plan, rows: container.NewVBox(), hint: widget.NewLabel("")}
	p.hint.Wrapping = fyne.TextWrapWord
	p.hint.Importance = widget.WarningImportance
	p.split = widget.NewSelect(splitNames(), func(string) {
		p.by = library.LabelBys[p.split.SelectedIndex()]
		p.fill()
	})
	p.split.SetSelectedIndex(defaultSplit(plan))
	head := widget.NewLabel(p.summary())
	head.Wrapping = fyne.TextWrapWord
	top := container.NewVBox(head, container.NewBorder(nil, nil, widget.NewLabel(lang.L("Arms:")), nil, p.split), p.hint)
	scroll := container.NewVScroll(p.rows)
	scroll.SetMinSize(fyne.NewSize(720, 300))
	p.dialog = dialog.NewCustomConfirm(lang.L("Import"), lang.L("Import"), lang.L("Cancel"),
		container.NewBorder(top, nil, nil, nil, scroll), p.onConfirm, im.u.win)
	im.current = p
	im.u.showDialog(p.dialog)
	p.dialog.Resize(dialogSize(im.u.win, fyne.NewSize(820, 560)))
}

// defaultSplit is the manifests' labels when any run has one, else one arm per imported folder.
func defaultSplit(plan library.Plan) int {
	for _, g := range plan.Groups(library.LabelByManifest) {
		if g.Label != "" && g.Label != bundleLabel(g) {
			return indexOf(library.LabelBys, library.LabelByManifest)
		}
	}
	return indexOf(library.LabelBys, library.LabelByBundle)
}

func bundleLabel(g library.Group) string { return shortPath(strings.TrimSuffix(g.Bundle, "/")) }

func indexOf[T comparable](list []T, v T) int {
	for i, x := range list {
		if x == v {
			return i
		}
	}
	return 0
}

// summary is the dialog's first line: runs found and what will not be read.
func (p *importPlan) summary() string {
	msg := fmt.Sprintf(lang.L("Found %s in %s."), plural(p.plan.Runs(), lang.L("%d run"), lang.L("%d runs")), strings.Join(shortPaths(p.paths), ", "))
	if n := len(p.plan.Errors); n > 0 {
		msg += " " + fmt.Sprintf(lang.L("%s will be refused (the import report says why)."), plural(n, lang.L("%d file"), lang.L("%d files")))
	}
	return msg
}

// fill lists the groups of the chosen split, each with its label and role.
func (p *importPlan) fill() {
	p.rows.RemoveAll()
	p.labels, p.roles = map[string]*escEntry{}, map[string]*widget.Select{}
	roles := append([]string{keepRole()}, roleNames()...)
	var mixed []string
	spread := "" // the first group of runs in several subfolders, said once
	for _, g := range p.plan.Groups(p.by) {
		label := newEscEntry(p.im.u)
		label.SetText(g.Label)
		role := widget.NewSelect(roles, nil)
		role.SetSelectedIndex(0)
		if g.Role != "" {
			role.SetSelected(string(g.Role))
		}
		p.labels[g.Key], p.roles[g.Key] = label, role
		what := widget.NewLabel(groupText(g))
		what.Wrapping = fyne.TextWrapWord
		what.Importance = widget.LowImportance
		p.rows.Add(container.NewBorder(nil, what, nil, container.NewGridWrap(fyne.NewSize(180, label.MinSize().Height), role), label))
		p.rows.Add(widget.NewSeparator())
		if len(g.Models) > 1 || len(g.Precisions) > 1 {
			mixed = append(mixed, g.Label)
		}
		if len(g.Subfolders) > 1 && spread == "" {
			spread = fmt.Sprintf(lang.L("%s holds runs of %d folders (%s): one arm per subfolder makes an arm of each."),
				g.Label, len(g.Subfolders), folderList(g.Subfolders))
		}
	}
	var hints []string
	if len(mixed) > 0 && p.by != library.LabelByModel {
		hints = append(hints, fmt.Sprintf(lang.L("%s holds runs of several models or precisions: split by model to make an arm of each."), strings.Join(mixed, ", ")))
	}
	if spread != "" && p.by != library.LabelByFolder {
		hints = append(hints, spread)
	}
	p.hint.SetText(strings.Join(hints, "\n"))
	p.hint.Hidden = len(hints) == 0
	p.hint.Refresh()
	p.rows.Refresh()
}

// folderList names up to three folders ("." the imported one itself) and how many more.
func folderList(names []string) string {
	shown := make([]string, 0, 3)
	for _, n := range names[:min(3, len(names))] {
		if n == "" {
			n = "."
		}
		shown = append(shown, n)
	}
	text := strings.Join(shown, ", ")
	if len(names) > 3 {
		text += fmt.Sprintf(lang.L(" and %d more"), len(names)-3)
	}
	return text
}

// groupText says what a group holds: runs, folder, models and precisions.
func groupText(g library.Group) string {
	parts := []string{plural(g.Runs, lang.L("%d run"), lang.L("%d runs"))}
	if g.Folder != "" {
		parts = append(parts, "📁 "+g.Folder)
	}
	for _, m := range g.Models {
		parts = append(parts, model.ModelName(m))
	}
	if len(g.Precisions) > 0 {
		parts = append(parts, strings.Join(g.Precisions, ", "))
	}
	return strings.Join(parts, " · ")
}

// onConfirm imports with the labels and roles as the analyst left them.
func (p *importPlan) onConfirm(ok bool) {
	p.im.current = nil
	if !ok {
		p.im.u.setStatus(lang.L("Import cancelled."))
		return
	}
	opt := library.Options{LabelBy: p.by, Groups: map[string]library.GroupChoice{}}
	for key, label := range p.labels {
		c := library.GroupChoice{Label: label.Text}
		if i := p.roles[key].SelectedIndex(); i > 0 {
			c.Role = model.Roles[i-1]
		}
		opt.Groups[key] = c
	}
	p.im.importPaths(p.paths, opt, nil)
}

// dialogSize is want, shrunk to fit the window with a margin.
func dialogSize(w fyne.Window, want fyne.Size) fyne.Size {
	s := w.Canvas().Size()
	return fyne.NewSize(min(want.Width, s.Width-40), min(want.Height, s.Height-40))
}
