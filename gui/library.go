package gui

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"benchlens/analysis/report"
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

	rows     []library.BriefRow  // every run in id order; nil until the first load is shown
	at       map[int64]int       // a run's place in rows
	index    sidebarIndex        // made once per load: a keystroke over 100,000 runs only compares and appends
	children map[string][]string // tree: node id → child ids, after filtering
	armText  map[string]string   // an arm node's text (runs shown, their precisions), made by rebuild
	selected string
	marked   map[string]bool // nodes ticked for the actions on several (markBar)
	markBar  *fyne.Container
	markText *widget.Label
	hint     *widget.Label // how to import: hidden while the marked items' bar is shown
	loads    int           // reloads asked for: a slower, older one never replaces a newer one's rows
	// read lists the runs; it may give the first of many in advance.
	read func(st *store.Store, first func([]library.BriefRow)) ([]library.BriefRow, error)
}

// sidebarIndex is what rebuild groups a load's runs by, made once per load (indexRows): per row
// its search text in lower case, its node id and its bundle; the bundles and arms in the
// order their first run comes.
type sidebarIndex struct {
	haystack []string
	node     []string
	bundle   []int
	bundles  []sidebarBundle
	arms     []sidebarArm
}

type sidebarBundle struct {
	arm  int
	node string
}

type sidebarArm struct{ label, node string }

// Tree node ids: "arm:<label>", "bundle:<label>\x00<bundle>", "run:<id>".
const (
	armPrefix    = "arm:"
	bundlePrefix = "bundle:"
	runPrefix    = "run:"
)

func newLibraryView(u *App) *libraryView {
	v := &libraryView{u: u, children: map[string][]string{}, armText: map[string]string{}, marked: map[string]bool{}, read: readRows}
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
	v.hint = widget.NewLabel(lang.L("Drop result folders, .zip or .tar.gz anywhere on the window to import."))
	v.hint.Wrapping = fyne.TextWrapWord
	v.hint.Importance = widget.LowImportance
	v.markBar = v.newMarkBar()
	v.content = container.NewBorder(top, container.NewVBox(v.markBar, container.NewGridWithColumns(2, useBase, useCand), v.hint), nil, nil, v.tree)
	return v
}

// newMarkBar is the bar of actions on the marked items, two rows high so a laptop's 768 px
// still shows most of the tree: what is marked and a button to clear it, then Compare these
// beside a menu of the rest (relabel, role, delete). Hidden until something is marked.
func (v *libraryView) newMarkBar() *fyne.Container {
	v.markText = widget.NewLabel("")
	v.markText.Truncation = fyne.TextTruncateEllipsis
	more := widget.NewButtonWithIcon(lang.L("More…"), theme.MoreVerticalIcon(), nil)
	more.OnTapped = func() {
		menu := fyne.NewMenu("", fyne.NewMenuItem(lang.L("Relabel…"), v.onRelabel), fyne.NewMenuItem(lang.L("Role…"), v.onRole),
			fyne.NewMenuItem(lang.L("Delete…"), v.onDelete))
		c := fyne.CurrentApp().Driver().CanvasForObject(more)
		widget.ShowPopUpMenuAtRelativePosition(menu, c, fyne.NewPos(0, more.Size().Height), more)
	}
	bar := container.NewVBox(widget.NewSeparator(),
		container.NewBorder(nil, nil, nil, widget.NewButton(lang.L("Clear marks"), v.clearMarks), v.markText),
		container.NewGridWithColumns(2, widget.NewButton(lang.L("Compare these"), v.compareMarked), more))
	bar.Hide()
	return bar
}

func (u *App) importerChooseFiles()  { u.importer.chooseFiles() }
func (u *App) importerChooseFolder() { u.importer.chooseFolder() }

// reload reads the runs from the library off the UI thread, then shows them.
func (v *libraryView) reload(done func()) {
	st, read := v.u.st, v.read
	v.loads++
	gen := v.loads
	go func() {
		// The first load shows the first batch of a large library while the rest is read:
		// the sidebar fills in a fraction of a second, then grows once to the whole library.
		rows, err := read(st, func(first []library.BriefRow) {
			ix := indexRows(first)
			onUI(func() {
				if gen == v.loads && v.rows == nil {
					v.rows, v.at, v.index = ix.rows, ix.at, ix.sidebarIndex
					v.rebuild()
					v.u.setStatus(fmt.Sprintf(lang.L("Reading the library: the first %d runs shown…"), len(first)))
				}
			})
		})
		ix := indexRows(rows) // off the UI thread: 100,000 runs take a tenth of a second
		onUI(func() {
			// A newer reload (after an import, of another library) shows its own rows.
			if gen == v.loads {
				if err != nil {
					v.u.setStatus(lang.L("Could not read the library") + ": " + err.Error())
				}
				v.rows, v.at, v.index = ix.rows, ix.at, ix.sidebarIndex
				v.rebuild()
				v.u.showEmpty(err == nil && len(rows) == 0)
			}
			if done != nil {
				done()
			}
		})
	}()
}

// readRows lists the library's runs with their evidence, as the sidebar shows them
// (library.EachBriefRows). When more batches follow the first, first has its rows as soon as
// they are read; the batches are joined once at the end, not copied as the list grows.
func readRows(st *store.Store, first func([]library.BriefRow)) ([]library.BriefRow, error) {
	var batches [][]library.BriefRow
	n := 0
	err := library.EachBriefRows(st, func(batch []library.BriefRow) error {
		if len(batches) == 0 && len(batch) >= store.ListBatchRuns && first != nil {
			first(batch) // read, never written, as the rows joined from it
		}
		batches, n = append(batches, batch), n+len(batch)
		return nil
	})
	if len(batches) == 1 {
		return batches[0], err
	}
	rows := make([]library.BriefRow, 0, n) // not nil: an empty library is loaded too
	for _, b := range batches {
		rows = append(rows, b...)
	}
	return rows, err
}

func (v *libraryView) count() int { return len(v.rows) }

// row is the run of an id as loaded (the zero row when it is not).
func (v *libraryView) row(id int64) library.BriefRow {
	if i, ok := v.at[id]; ok {
		return v.rows[i]
	}
	return library.BriefRow{}
}

// indexedRows are a load's rows in id order, indexed for rebuild.
type indexedRows struct {
	rows []library.BriefRow
	at   map[int64]int
	sidebarIndex
}

// indexRows orders a load's rows by id and indexes them for rebuild: their search texts,
// node ids, bundles and arms.
func indexRows(rows []library.BriefRow) indexedRows {
	if !slices.IsSortedFunc(rows, func(a, b library.BriefRow) int { return cmp.Compare(a.ID, b.ID) }) {
		rows = slices.Clone(rows)
		slices.SortFunc(rows, func(a, b library.BriefRow) int { return cmp.Compare(a.ID, b.ID) })
	}
	out := indexedRows{rows: rows, at: make(map[int64]int, len(rows))}
	ix := sidebarIndex{haystack: make([]string, len(rows)), node: make([]string, len(rows)), bundle: make([]int, len(rows))}
	arms := map[string]int{}
	bundles := map[[2]string]int{}
	var node [32]byte
	for i := range rows {
		r := &rows[i]
		out.at[r.ID] = i
		ix.haystack[i] = strings.ToLower(searchText(*r))
		ix.node[i] = string(strconv.AppendInt(append(node[:0], runPrefix...), r.ID, 10)) // one string, not two
		key := [2]string{r.Label, r.Bundle}
		b, ok := bundles[key]
		if !ok {
			a, ok := arms[r.Label]
			if !ok {
				a = len(ix.arms)
				arms[r.Label] = a
				ix.arms = append(ix.arms, sidebarArm{label: r.Label, node: armPrefix + r.Label})
			}
			b = len(ix.bundles)
			bundles[key] = b
			ix.bundles = append(ix.bundles, sidebarBundle{arm: a, node: bundlePrefix + r.Label + "\x00" + r.Bundle})
		}
		ix.bundle[i] = b
	}
	out.sidebarIndex = ix
	return out
}

// rebuild regroups the runs that pass the search and role filter: one pass over the load's
// index that compares and appends, whatever the query.
func (v *libraryView) rebuild() {
	query := strings.ToLower(strings.TrimSpace(v.search.Text))
	var role model.Role
	if i := v.role.SelectedIndex(); i > 0 {
		role = model.Roles[i-1]
	}
	ix := &v.index
	runsOf := make([][]string, len(ix.bundles)) // bundle → its runs shown
	armBundles := make([][]int, len(ix.arms))   // arm → its bundles shown, in the order their first run comes
	newest := make([]string, len(ix.arms))      // arm → its newest run's date
	precisions := make([][]string, len(ix.arms))
	counts := make([]int, len(ix.arms))
	shown := 0
	for i := range v.rows {
		r := &v.rows[i]
		if role != "" && r.Role != role {
			continue
		}
		if query != "" && !strings.Contains(ix.haystack[i], query) {
			continue
		}
		shown++
		b := ix.bundle[i]
		a := ix.bundles[b].arm
		if len(runsOf[b]) == 0 {
			armBundles[a] = append(armBundles[a], b)
		}
		runsOf[b] = append(runsOf[b], ix.node[i])
		counts[a]++
		newest[a] = max(newest[a], r.Date)
		if p := r.Precision; p != "" && !slices.Contains(precisions[a], p) {
			precisions[a] = append(precisions[a], p)
		}
	}
	children := map[string][]string{}
	armText := map[string]string{}
	var shownArms []int
	for a, bs := range armBundles {
		if len(bs) == 0 {
			continue
		}
		arm := ix.arms[a].node
		shownArms = append(shownArms, a)
		// An arm of one bundle lists its runs directly: one click less to reach a run.
		if len(bs) == 1 {
			children[arm] = runsOf[bs[0]]
		} else {
			for _, b := range bs {
				children[arm] = append(children[arm], ix.bundles[b].node)
				children[ix.bundles[b].node] = runsOf[b]
			}
		}
		text := fmt.Sprintf("%s (%d)", ix.arms[a].label, counts[a])
		if len(precisions[a]) > 0 {
			slices.Sort(precisions[a])
			text += " · " + strings.Join(precisions[a], "+")
		}
		armText[arm] = text
	}
	slices.SortFunc(shownArms, func(a, b int) int { return strings.Compare(ix.arms[a].node, ix.arms[b].node) })
	if v.order.SelectedIndex() == 1 {
		slices.SortStableFunc(shownArms, func(a, b int) int { return strings.Compare(newest[b], newest[a]) })
	}
	var arms []string
	for _, a := range shownArms {
		arms = append(arms, ix.arms[a].node)
	}
	if arms != nil {
		children[""] = arms
	}
	v.children, v.armText = children, armText
	v.tree.Refresh()
	inArms := plural(len(arms), lang.L("%d arm"), lang.L("%d arms"))
	if shown == len(v.rows) {
		v.u.setStatus(fmt.Sprintf(lang.L("%s in %s"), plural(len(v.rows), lang.L("%d run"), lang.L("%d runs")), inArms))
	} else {
		v.u.setStatus(fmt.Sprintf(lang.L("%d of %d runs shown, in %s"), shown, len(v.rows), inArms))
	}
}

func searchText(r library.BriefRow) string {
	parts := []string{r.Label, string(r.Role), r.Tool, r.Model, r.Bundle, r.Date}
	for _, b := range []string{r.ResolvedBackend, r.TargetBackend} {
		if b != "" {
			parts = append(parts, b)
		}
	}
	return strings.Join(parts, " ")
}

func (v *libraryView) childIDs(id widget.TreeNodeID) []widget.TreeNodeID { return v.children[id] }

func (v *libraryView) isBranch(id widget.TreeNodeID) bool {
	return id == "" || strings.HasPrefix(id, armPrefix) || strings.HasPrefix(id, bundlePrefix)
}

// createNode is a node's row: a check box to mark it (several marked nodes are relabelled,
// given a role, deleted or compared together) and its text.
// A run's row has two lines: what it measured (precision, model) above when and how it ran.
func (v *libraryView) createNode(branch bool) fyne.CanvasObject {
	l := widget.NewLabel("")
	l.Truncation = fyne.TextTruncateEllipsis
	if !branch {
		l.SetText("\n") // sizes the template for two lines
	}
	return container.NewBorder(nil, nil, widget.NewCheck("", nil), nil, l)
}

func (v *libraryView) updateNode(id widget.TreeNodeID, _ bool, o fyne.CanvasObject) {
	row := o.(*fyne.Container)
	row.Objects[0].(*widget.Label).SetText(v.nodeText(id))
	check := row.Objects[1].(*widget.Check)
	check.OnChanged = nil // setting the state is not the analyst marking it
	check.SetChecked(v.marked[id])
	check.OnChanged = func(on bool) { v.mark(id, on) }
}

// mark marks or unmarks a node, and says in the sidebar what is marked.
func (v *libraryView) mark(id string, on bool) {
	if on {
		v.marked[id] = true
	} else {
		delete(v.marked, id)
	}
	v.showMarked()
}

// showMarked shows the actions on the marked nodes, with how many runs they hold.
func (v *libraryView) showMarked() {
	nodes := v.markedNodes()
	if len(nodes) == 0 {
		v.markBar.Hide()
		v.hint.Show()
		return
	}
	runs := 0
	for _, n := range nodes {
		runs += len(v.nodeRuns(n))
	}
	v.markText.SetText(fmt.Sprintf(lang.L("Marked: %s, %s"), plural(len(nodes), lang.L("%d item"), lang.L("%d items")),
		plural(runs, lang.L("%d run"), lang.L("%d runs"))))
	v.markBar.Show()
	v.hint.Hide()
}

// markedNodes are the marked nodes still shown, in the sidebar's order.
func (v *libraryView) markedNodes() []string {
	var out []string
	var walk func(id string)
	walk = func(id string) {
		for _, c := range v.children[id] {
			if v.marked[c] {
				out = append(out, c)
			}
			walk(c)
		}
	}
	walk("")
	return out
}

// clearMarks unmarks every node.
func (v *libraryView) clearMarks() {
	v.marked = map[string]bool{}
	v.showMarked()
	v.tree.Refresh()
}

// nodeText is an arm's label and run count, a bundle's folder name, or a run's one-line summary.
func (v *libraryView) nodeText(id string) string {
	switch {
	case strings.HasPrefix(id, armPrefix):
		if text, ok := v.armText[id]; ok {
			return text
		}
		return strings.TrimPrefix(id, armPrefix) + " (0)"
	case strings.HasPrefix(id, bundlePrefix):
		b := id[strings.IndexByte(id, 0)+1:]
		return "📁 " + shortPath(b)
	case strings.HasPrefix(id, runPrefix):
		runID, _ := strconv.ParseInt(strings.TrimPrefix(id, runPrefix), 10, 64)
		return runText(v.row(runID))
	}
	return id
}

// runText is what tells runs apart: id, model and precision (FP16 and FP8 runs of one model)
// on one line; on the next its load point, load and request shape (a sweep of shapes at one
// load listed runs that looked the same), then date and time and the resolved backend,
// which a narrow sidebar cuts first.
func runText(r library.BriefRow) string {
	backend := r.ResolvedBackend // "" unknown: not drawn (a lone "?" read as a question about the load)
	date := rowDate(report.When(r.Date))
	var load []string
	if r.RequestRate.Known() && r.RequestRate.F() < 1e300 {
		load = append(load, r.RequestRate.Readable()+" req/s")
	}
	if r.MaxConcurrency.Known() {
		load = append(load, lang.L("conc.")+" "+r.MaxConcurrency.Readable())
	}
	return strings.Join(nonEmpty("#"+strconv.FormatInt(r.ID, 10), r.Precision, model.ModelName(r.Model)), " · ") + "\n" +
		strings.Join(nonEmpty(strings.Join(load, " "), r.Shape, date, backend), " · ")
}

// rowDate is a run's date and time without the year ("04-26 20:07"), which a row has no
// room for: the run view says it whole.
func rowDate(when string) string {
	if len(when) > 5 && when[4] == '-' && strings.Trim(when[:4], "0123456789") == "" {
		return when[5:]
	}
	return when
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
func (v *libraryView) selection() (sel string, ids []int64) { return v.nodeSelector(v.selected) }

// nodeSelector is an arm selector for a node (an arm's label, else its runs' ids) and its runs.
func (v *libraryView) nodeSelector(id string) (sel string, ids []int64) {
	ids = v.nodeRuns(id)
	switch {
	case strings.HasPrefix(id, armPrefix):
		sel = strings.TrimPrefix(id, armPrefix)
	case len(ids) > 0:
		sel = library.IDSelector(ids)
	}
	return sel, ids
}

// nodeRuns are the run ids a node holds.
func (v *libraryView) nodeRuns(id string) []int64 {
	switch {
	case strings.HasPrefix(id, armPrefix):
		return runIDs(v.armRuns(id))
	case strings.HasPrefix(id, bundlePrefix):
		return runIDs(v.children[id])
	case strings.HasPrefix(id, runPrefix):
		return runIDs([]string{id})
	}
	return nil
}

// target is what the actions work on: the marked nodes' runs, else the selected node's.
func (v *libraryView) target() []int64 {
	nodes := v.markedNodes()
	if len(nodes) == 0 {
		_, ids := v.selection()
		return ids
	}
	var ids []int64
	for _, n := range nodes {
		for _, id := range v.nodeRuns(n) {
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	slices.Sort(ids)
	return ids
}

// compareMarked compares the two marked nodes: the one whose runs are mostly baselines is the
// baseline, else the first in the sidebar.
func (v *libraryView) compareMarked() {
	nodes := v.markedNodes()
	if len(nodes) != 2 {
		v.u.setStatus(lang.L("Mark two arms, bundles or runs to compare them."))
		return
	}
	base, _ := v.nodeSelector(nodes[0])
	cand, candIDs := v.nodeSelector(nodes[1])
	if v.baselines(candIDs)*2 > len(candIDs) {
		base, cand = cand, base
	}
	v.u.compare.setArm(true, base)
	v.u.compare.setArm(false, cand)
	v.u.showView(viewCompare)
}

// baselines counts the runs of ids whose role is baseline.
func (v *libraryView) baselines(ids []int64) int {
	n := 0
	for _, id := range ids {
		if v.row(id).Role == model.RoleBaseline {
			n++
		}
	}
	return n
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

// useAs sets the selected node as one arm of the comparison; with nothing selected, the one
// marked node serves (an analyst who ticked an arm means that arm).
func (v *libraryView) useAs(baseline bool) {
	sel, _ := v.selection()
	if marked := v.markedNodes(); sel == "" && len(marked) == 1 {
		sel, _ = v.nodeSelector(marked[0])
	}
	if sel == "" {
		v.u.setStatus(lang.L("Select an arm, a bundle or a run first."))
		return
	}
	v.u.compare.setArm(baseline, sel)
	v.u.showView(viewCompare)
}

func (v *libraryView) onDelete() {
	ids := v.target()
	if len(ids) == 0 {
		v.u.setStatus(lang.L("Select runs to delete first."))
		return
	}
	msg := fmt.Sprintf(lang.L("Delete %s and their samples from the library? Their files stay on disk."), plural(len(ids), lang.L("%d run"), lang.L("%d runs")))
	v.u.showConfirm(lang.L("Delete runs"), msg, func(ok bool) {
		if !ok {
			return
		}
		st := v.u.st
		go func() {
			err := library.DeleteRuns(st, ids)
			onUI(func() {
				if err != nil {
					v.u.showError(err)
				}
				v.clearMarks()
				v.u.libraryChanged()
			})
		}()
	})
}

func (v *libraryView) onRelabel() {
	ids := v.target()
	if len(ids) == 0 {
		v.u.setStatus(lang.L("Select runs to relabel first."))
		return
	}
	label := newEscEntry(v.u)
	label.SetText(v.row(ids[0]).Label)
	role := widget.NewSelect(roleNames(), nil)
	role.SetSelectedIndex(slices.Index(model.Roles, v.row(ids[0]).Role))
	v.askRelabel(lang.L("Relabel runs"), ids, []*widget.FormItem{
		widget.NewFormItem(lang.L("Label (arm)"), label),
		widget.NewFormItem(lang.L("Role"), role),
	}, func() (string, model.Role) { return label.Text, roleAt(role) })
}

// onRole gives the target runs a role, keeping their labels.
func (v *libraryView) onRole() {
	ids := v.target()
	if len(ids) == 0 {
		v.u.setStatus(lang.L("Select runs to relabel first."))
		return
	}
	role := widget.NewSelect(roleNames(), nil)
	role.SetSelectedIndex(slices.Index(model.Roles, v.row(ids[0]).Role))
	v.askRelabel(lang.L("Role of the runs"), ids, []*widget.FormItem{widget.NewFormItem(lang.L("Role"), role)},
		func() (string, model.Role) { return "", roleAt(role) })
}

// askRelabel asks for a label and a role in a form, then relabels ids: an empty label keeps each
// run's own.
func (v *libraryView) askRelabel(title string, ids []int64, items []*widget.FormItem, chosen func() (string, model.Role)) {
	head := widget.NewFormItem("", widget.NewLabel(plural(len(ids), lang.L("%d run"), lang.L("%d runs"))))
	v.u.showDialog(dialog.NewForm(title, lang.L("Apply"), lang.L("Cancel"), append([]*widget.FormItem{head}, items...), func(ok bool) {
		if !ok {
			return
		}
		label, role := chosen()
		err := v.relabel(ids, label, role)
		if err != nil {
			v.u.showError(err)
			return
		}
		v.clearMarks()
		v.u.libraryChanged()
	}, v.u.win))
}

// relabel moves ids to label (each keeps its own when label is "") with role.
func (v *libraryView) relabel(ids []int64, label string, role model.Role) error {
	if label != "" {
		return library.Relabel(v.u.st, ids, label, role)
	}
	byLabel := map[string][]int64{}
	for _, id := range ids {
		label := v.row(id).Label
		byLabel[label] = append(byLabel[label], id)
	}
	for l, group := range byLabel {
		if err := library.Relabel(v.u.st, group, l, role); err != nil {
			return err
		}
	}
	return nil
}

func roleAt(s *widget.Select) model.Role {
	if i := s.SelectedIndex(); i >= 0 {
		return model.Roles[i]
	}
	return ""
}

// roleNames are the roles as the pickers list them, in model.Roles' order.
func roleNames() []string {
	names := make([]string, len(model.Roles))
	for i, r := range model.Roles {
		names[i] = string(r)
	}
	return names
}
