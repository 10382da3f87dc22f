package gui

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"benchlens/library"
	"benchlens/model"
	"benchlens/store"
)

// libraryView is the sidebar: runs grouped by arm (label) and bundle, with search, a role
// filter, import, delete and relabel.
type libraryView struct {
	u       *App
	content fyne.CanvasObject

	search *widget.Entry
	role   *widget.Select
	order  *widget.Select // arms by name or newest first
	tree   *widget.Tree

	rows     map[int64]library.RunRow // every run; nil until the first load is shown
	children map[string][]string      // tree: node id → child ids, after filtering
	selected string
	loads    int // reloads asked for: a slower, older one never replaces a newer one's rows
	read     func(*store.Store) (map[int64]library.RunRow, error)
}

// Tree node ids: "arm:<label>", "bundle:<label>\x00<bundle>", "run:<id>".
const (
	armPrefix    = "arm:"
	bundlePrefix = "bundle:"
	runPrefix    = "run:"
)

func newLibraryView(u *App) *libraryView {
	v := &libraryView{u: u, children: map[string][]string{}, read: readRows}
	v.search = widget.NewEntry()
	v.search.SetPlaceHolder(lang.L("Search label, model, tool, backend…"))
	v.search.OnChanged = func(string) { v.rebuild() }
	v.tree = widget.NewTree(v.childIDs, v.isBranch, v.createNode, v.updateNode)
	v.tree.OnSelected = v.onSelected
	v.role = widget.NewSelect(append([]string{lang.L("all roles")}, roleNames()...), nil)
	v.role.SetSelectedIndex(0)
	v.role.OnChanged = func(string) { v.rebuild() }
	v.order = widget.NewSelect([]string{lang.L("by name"), lang.L("newest first")}, nil)
	v.order.SetSelectedIndex(0)
	v.order.OnChanged = func(string) { v.rebuild() }

	bar := widget.NewToolbar(
		widget.NewToolbarAction(theme.FileIcon(), u.importerChooseFiles),
		widget.NewToolbarAction(theme.FolderOpenIcon(), u.importerChooseFolder),
		widget.NewToolbarSeparator(),
		widget.NewToolbarAction(theme.DocumentCreateIcon(), v.onRelabel),
		widget.NewToolbarAction(theme.DeleteIcon(), v.onDelete),
	)
	useBase := widget.NewButton(lang.L("Use as baseline"), func() { v.useAs(true) })
	useCand := widget.NewButton(lang.L("Use as candidate"), func() { v.useAs(false) })
	top := container.NewVBox(
		widget.NewLabelWithStyle(lang.L("Library"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		bar, v.search, container.NewGridWithColumns(2, v.role, v.order))
	hint := widget.NewLabel(lang.L("Drop result folders, .zip or .tar.gz anywhere on the window to import."))
	hint.Wrapping = fyne.TextWrapWord
	hint.Importance = widget.LowImportance
	v.content = container.NewBorder(top, container.NewVBox(container.NewGridWithColumns(2, useBase, useCand), hint), nil, nil, v.tree)
	return v
}

func (u *App) importerChooseFiles()  { u.importer.chooseFiles() }
func (u *App) importerChooseFolder() { u.importer.chooseFolder() }

// reload reads the runs from the library off the UI thread, then shows them.
func (v *libraryView) reload(done func()) {
	st, read := v.u.st, v.read
	v.loads++
	gen := v.loads
	go func() {
		rows, err := read(st)
		onUI(func() {
			// A newer reload (after an import, of another library) shows its own rows.
			if gen == v.loads {
				if err != nil {
					v.u.setStatus(lang.L("Could not read the library") + ": " + err.Error())
				}
				v.rows = rows
				v.rebuild()
				v.u.showEmpty(err == nil && len(rows) == 0)
			}
			if done != nil {
				done()
			}
		})
	}()
}

// readRows lists the library's runs with their evidence, as the sidebar shows them.
func readRows(st *store.Store) (map[int64]library.RunRow, error) {
	list, err := library.Rows(st)
	rows := make(map[int64]library.RunRow, len(list))
	for _, r := range list {
		rows[r.ID] = r
	}
	return rows, err
}

func (v *libraryView) count() int { return len(v.rows) }

// rebuild regroups the runs that pass the search and role filter.
func (v *libraryView) rebuild() {
	query := strings.ToLower(strings.TrimSpace(v.search.Text))
	var role model.Role
	if i := v.role.SelectedIndex(); i > 0 {
		role = model.Roles[i-1]
	}
	children := map[string][]string{}
	seen := map[string]bool{}
	newest := map[string]string{} // arm → its newest run's date
	ids := make([]int64, 0, len(v.rows))
	for id := range v.rows {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	shown := 0
	for _, id := range ids {
		r := v.rows[id]
		if role != "" && r.Role != role {
			continue
		}
		if query != "" && !strings.Contains(strings.ToLower(searchText(r)), query) {
			continue
		}
		shown++
		arm := armPrefix + r.Label
		bundle := bundlePrefix + r.Label + "\x00" + r.Bundle
		if !seen[arm] {
			seen[arm] = true
			children[""] = append(children[""], arm)
		}
		newest[arm] = max(newest[arm], r.Date)
		if !seen[bundle] {
			seen[bundle] = true
			children[arm] = append(children[arm], bundle)
		}
		children[bundle] = append(children[bundle], runPrefix+strconv.FormatInt(id, 10))
	}
	// An arm of one bundle lists its runs directly: one click less to reach a run.
	for _, arm := range children[""] {
		if b := children[arm]; len(b) == 1 {
			children[arm] = children[b[0]]
			delete(children, b[0])
		}
	}
	arms := children[""]
	sort.Strings(arms)
	if v.order.SelectedIndex() == 1 {
		sort.SliceStable(arms, func(i, j int) bool { return newest[arms[i]] > newest[arms[j]] })
	}
	v.children = children
	v.tree.Refresh()
	if shown == len(v.rows) {
		v.u.setStatus(fmt.Sprintf(lang.L("%d runs in %d arms"), len(v.rows), len(arms)))
	} else {
		v.u.setStatus(fmt.Sprintf(lang.L("%d of %d runs shown, in %d arms"), shown, len(v.rows), len(arms)))
	}
}

func searchText(r library.RunRow) string {
	parts := []string{r.Label, string(r.Role), r.Tool, r.Model, r.Bundle, r.Date}
	for _, p := range []*string{r.ResolvedBackend, r.TargetBackend} {
		if p != nil {
			parts = append(parts, *p)
		}
	}
	return strings.Join(parts, " ")
}

func (v *libraryView) childIDs(id widget.TreeNodeID) []widget.TreeNodeID { return v.children[id] }

func (v *libraryView) isBranch(id widget.TreeNodeID) bool {
	return id == "" || strings.HasPrefix(id, armPrefix) || strings.HasPrefix(id, bundlePrefix)
}

func (v *libraryView) createNode(bool) fyne.CanvasObject {
	l := widget.NewLabel("")
	l.Truncation = fyne.TextTruncateEllipsis
	return l
}

func (v *libraryView) updateNode(id widget.TreeNodeID, _ bool, o fyne.CanvasObject) {
	o.(*widget.Label).SetText(v.nodeText(id))
}

// nodeText is an arm's label and run count, a bundle's folder name, or a run's one-line summary.
func (v *libraryView) nodeText(id string) string {
	switch {
	case strings.HasPrefix(id, armPrefix):
		return fmt.Sprintf("%s (%d)", strings.TrimPrefix(id, armPrefix), len(v.armRuns(id)))
	case strings.HasPrefix(id, bundlePrefix):
		b := id[strings.IndexByte(id, 0)+1:]
		return "📁 " + shortPath(b)
	case strings.HasPrefix(id, runPrefix):
		runID, _ := strconv.ParseInt(strings.TrimPrefix(id, runPrefix), 10, 64)
		return runText(v.rows[runID])
	}
	return id
}

// runText is what tells runs apart: id, date and time, load point, resolved backend.
func runText(r library.RunRow) string {
	backend := "?"
	if r.ResolvedBackend != nil {
		backend = *r.ResolvedBackend
	}
	date := strings.Replace(r.Date, "T", " ", 1)
	if len(date) > 16 {
		date = date[:16]
	}
	var load []string
	if r.RequestRate.Known() && r.RequestRate.F() < 1e300 {
		load = append(load, r.RequestRate.Readable()+" req/s")
	}
	if r.MaxConcurrency.Known() {
		load = append(load, lang.L("conc.")+" "+r.MaxConcurrency.Readable())
	}
	return strings.Join(nonEmpty("#"+strconv.FormatInt(r.ID, 10), date, strings.Join(load, " "), backend), " · ")
}

func nonEmpty(parts ...string) []string {
	out := parts[:0]
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			out = append(out, p)
		}
	}
	return out
}

// armRuns are the run nodes of an arm, whether listed directly or by bundle.
func (v *libraryView) armRuns(arm string) []string {
	var out []string
	for _, c := range v.children[arm] {
		if strings.HasPrefix(c, runPrefix) {
			out = append(out, c)
		} else {
			out = append(out, v.children[c]...)
		}
	}
	return out
}

func shortPath(p string) string {
	p = strings.TrimRight(p, "/")
	if i := strings.LastIndexAny(p, `/\`); i >= 0 && i < len(p)-1 {
		return p[i+1:]
	}
	return p
}

func (v *libraryView) onSelected(id widget.TreeNodeID) {
	v.selected = id
	if v.isBranch(id) {
		v.tree.OpenBranch(id) // one click opens an arm; the next reaches a run
	}
	if strings.HasPrefix(id, runPrefix) {
		runID, _ := strconv.ParseInt(strings.TrimPrefix(id, runPrefix), 10, 64)
		v.u.run.show(runID)
		v.u.showView(viewRun)
	}
}

// selection is what the selected node stands for: an arm selector and the run ids below it.
func (v *libraryView) selection() (sel string, ids []int64) {
	id := v.selected
	switch {
	case strings.HasPrefix(id, armPrefix):
		sel = strings.TrimPrefix(id, armPrefix)
		ids = runIDs(v.armRuns(id))
	case strings.HasPrefix(id, bundlePrefix):
		ids = runIDs(v.children[id])
		sel = library.Selector(ids)
	case strings.HasPrefix(id, runPrefix):
		ids = runIDs([]string{id})
		sel = library.Selector(ids)
	}
	return sel, ids
}

func runIDs(nodes []string) []int64 {
	var out []int64
	for _, n := range nodes {
		if id, err := strconv.ParseInt(strings.TrimPrefix(n, runPrefix), 10, 64); err == nil {
			out = append(out, id)
		}
	}
	return out
}

func (v *libraryView) useAs(baseline bool) {
	sel, _ := v.selection()
	if sel == "" {
		v.u.setStatus(lang.L("Select an arm, a bundle or a run first."))
		return
	}
	v.u.compare.setArm(baseline, sel)
	v.u.showView(viewCompare)
}

func (v *libraryView) onDelete() {
	_, ids := v.selection()
	if len(ids) == 0 {
		v.u.setStatus(lang.L("Select runs to delete first."))
		return
	}
	msg := fmt.Sprintf(lang.L("Delete %d run(s) and their samples from the library? Their files stay on disk."), len(ids))
	dialog.ShowConfirm(lang.L("Delete runs"), msg, func(ok bool) {
		if !ok {
			return
		}
		st := v.u.st
		go func() {
			err := library.DeleteRuns(st, ids)
			onUI(func() {
				if err != nil {
					dialog.ShowError(err, v.u.win)
				}
				v.u.libraryChanged()
			})
		}()
	}, v.u.win)
}

func (v *libraryView) onRelabel() {
	_, ids := v.selection()
	if len(ids) == 0 {
		v.u.setStatus(lang.L("Select runs to relabel first."))
		return
	}
	label := widget.NewEntry()
	label.SetText(v.rows[ids[0]].Label)
	role := widget.NewSelect(roleNames(), nil)
	role.SetSelectedIndex(slices.Index(model.Roles, v.rows[ids[0]].Role))
	dialog.ShowForm(lang.L("Relabel runs"), lang.L("Relabel"), lang.L("Cancel"), []*widget.FormItem{
		widget.NewFormItem(lang.L("Label (arm)"), label),
		widget.NewFormItem(lang.L("Role"), role),
	}, func(ok bool) {
		if !ok {
			return
		}
		var r model.Role
		if i := role.SelectedIndex(); i >= 0 {
			r = model.Roles[i]
		}
		if err := library.Relabel(v.u.st, ids, label.Text, r); err != nil {
			dialog.ShowError(err, v.u.win)
			return
		}
		v.u.libraryChanged()
	}, v.u.win)
}

// roleNames are the roles as the pickers list them, in model.Roles' order.
func roleNames() []string {
	names := make([]string, len(model.Roles))
	for i, r := range model.Roles {
		names[i] = string(r)
	}
	return names
}
