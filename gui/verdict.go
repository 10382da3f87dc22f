package gui

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"benchlens/analysis/compare"
	"benchlens/analysis/report"
	"benchlens/library"
	"benchlens/model"
	"benchlens/store"
)

// verdictView is where the analyst signs a saved comparison: the proposed verdict and its
// causes, a note, tags, a status override that needs a reason, the author and time, and the
// whole history of edits. Every edit is written to the library within a second of typing
// (and at once when the view or the window closes), so nothing typed is lost on a crash.
type verdictView struct {
	u       *App
	content fyne.CanvasObject

	pick     *widget.Select
	proposed *headlineView
	causes   *widget.Label
	note     *widget.Entry
	tags     *widget.Entry
	override *widget.Select
	reason   *widget.Entry
	byline   *widget.Label
	history  *widget.Label
	problem  *widget.Label
	copy     *widget.Button // the rerun recipe to the clipboard
	saveHere *widget.Button // shown with an unsaved comparison: save it to annotate it

	list    []store.Comparison
	titles  map[int64]string // each saved comparison's entry in the picker
	current int64            // the saved comparison shown, else 0
	// unsaved is true while the view shows the Compare view's comparison before it is saved.
	unsaved bool
	rec     compare.Record   // the open comparison's record
	shown   store.Annotation // the edit shown or last saved: the next edit replaces or revises it
	loading bool             // true while fields are filled from the library: no save

	mu      sync.Mutex
	timer   *time.Timer
	pending *store.Annotation
	// sitting folds the autosaves into one history entry until another comparison opens,
	// the window closes or it is library.SittingLength old.
	sitting library.Sitting
}

// overrideStatuses are the statuses an analyst may set, in the override picker's order.
var overrideStatuses = []model.Status{model.Established, model.Zero, model.Offset, model.NotEstablished}

// saveDelay is how long typing may pause before an edit is written.
const saveDelay = 700 * time.Millisecond

func newVerdictView(u *App) *verdictView {
	v := &verdictView{u: u}
	v.pick = widget.NewSelect(nil, v.onPick)
	v.pick.PlaceHolder = lang.L("Save a comparison in the Compare view first")
	v.saveHere = widget.NewButton(lang.L("Save this comparison to annotate it"), func() { u.compare.onSave() })
	v.saveHere.Importance = widget.HighImportance
	v.saveHere.Hide()
	v.proposed = newHeadlineView("")
	v.causes = widget.NewLabel("")
	v.causes.Wrapping = fyne.TextWrapWord
	v.note = widget.NewMultiLineEntry()
	v.note.SetPlaceHolder(lang.L("What you checked, what you concluded, what to record next time…"))
	v.note.Wrapping = fyne.TextWrapWord
	v.note.SetMinRowsVisible(6)
	v.tags = widget.NewEntry()
	v.tags.SetPlaceHolder(lang.L("comma-separated, e.g. attention, fp8"))
	overrideNames := []string{lang.L("(none)")}
	for _, st := range overrideStatuses {
		overrideNames = append(overrideNames, statusText(st))
	}
	v.override = widget.NewSelect(overrideNames, nil)
	v.reason = widget.NewEntry()
	v.reason.SetPlaceHolder(lang.L("required with an override"))
	v.byline = widget.NewLabel("")
	v.history = widget.NewLabel("")
	v.history.Wrapping = fyne.TextWrapWord
	v.problem = widget.NewLabel("")
	v.problem.Truncation = fyne.TextTruncateEllipsis
	v.problem.Importance = widget.DangerImportance
	for _, e := range []*widget.Entry{v.note, v.tags, v.reason} {
		e.OnChanged = func(string) { v.edited() }
	}
	v.override.OnChanged = func(string) { v.edited() }

	v.copy = widget.NewButton(lang.L("Copy rerun commands"), v.copyRecipe)
	exports := container.NewHBox(widget.NewButton(lang.L("Export…"), v.exportDialog), v.copy)
	form := widget.NewForm(
		widget.NewFormItem(lang.L("Note"), v.note),
		widget.NewFormItem(lang.L("Tags"), v.tags),
		widget.NewFormItem(lang.L("Override status"), v.override),
		widget.NewFormItem(lang.L("Reason"), v.reason),
	)
	v.content = container.NewBorder(
		v.pick,
		container.NewVBox(v.problem, v.byline, exports),
		nil, nil,
		vscroll(container.NewVBox(v.proposed.content, v.causes, container.NewHBox(v.saveHere), form, widget.NewCard(lang.L("History"), "", v.history))),
	)
	v.setEnabled(false)
	return v
}

func (v *verdictView) setEnabled(on bool) {
	for _, w := range []fyne.Disableable{v.note, v.tags, v.override, v.reason} {
		if on {
			w.Enable()
		} else {
			w.Disable()
		}
	}
}

// reset writes a pending edit to the library it was typed in, then empties the view: about
// to open another library, whose comparison ids name other comparisons.
func (v *verdictView) reset() {
	v.list, v.titles = nil, nil
	v.pick.Options = nil
	v.blank(lang.L("Save a comparison in the Compare view first"))
	v.problem.SetText("")
}

// blank shows no comparison, the picker saying why, after writing a pending edit.
func (v *verdictView) blank(placeholder string) {
	v.endSitting()
	v.current, v.unsaved, v.rec, v.shown = 0, false, compare.Record{}, store.Annotation{}
	v.loading = true
	defer func() { v.loading = false }()
	v.pick.PlaceHolder = placeholder
	v.pick.ClearSelected()
	for _, l := range []*widget.Label{v.causes, v.byline, v.history} {
		l.SetText("")
	}
	v.proposed.prompt("", widget.MediumImportance)
	for _, e := range []*widget.Entry{v.note, v.tags, v.reason} {
		e.SetText("")
	}
	v.override.SetSelectedIndex(0)
	v.setEnabled(false)
	v.saveHere.Hide()
}

// follow shows the comparison the Compare view shows: the saved one it repeats (savedID),
// else the comparison itself with "Save this comparison to annotate it". The view never
// annotates another comparison than the one on screen.
func (v *verdictView) follow(rec compare.Record, base, cand string, savedID int64) {
	if savedID != 0 {
		if savedID != v.current || v.unsaved {
			v.open(savedID)
		}
		return
	}
	v.blank(fmt.Sprintf(lang.L("Unsaved: %s vs %s"), base, cand))
	v.unsaved, v.rec = true, rec
	v.proposed.show(rec.Status, report.HeadlineOf(rec).Spans)
	v.causes.SetText(causesText(rec))
	v.byline.SetText(lang.L("Not saved: save this comparison to annotate it."))
	v.saveHere.Show()
}

// compareCleared drops the Compare view's unsaved comparison once it is off that screen.
func (v *verdictView) compareCleared() {
	if v.unsaved {
		v.blank(v.defaultPlaceholder())
	}
}

func (v *verdictView) defaultPlaceholder() string {
	if len(v.list) == 0 {
		return lang.L("Save a comparison in the Compare view first")
	}
	return lang.L("Pick a saved comparison")
}

// reload lists the saved comparisons.
func (v *verdictView) reload() {
	list, err := library.Comparisons(v.u.st, library.ListOptions{Standing: true})
	if err != nil {
		v.problem.SetText(err.Error())
		return
	}
	v.list, v.titles = list, map[int64]string{}
	opts := make([]string, len(list))
	for i, c := range list {
		opts[i] = comparisonTitle(c)
		v.titles[c.ID] = opts[i]
	}
	v.pick.Options = opts
	v.pick.Refresh()
	if v.current != 0 {
		v.selectShown()
	}
	if v.current == 0 && !v.unsaved && len(list) > 0 {
		v.open(list[len(list)-1].ID)
	}
}

// selectShown names the comparison shown in the picker, by its entry in the list (a title
// built elsewhere, say with the proposed status instead of the analyst's, would not be found
// and the picker would go on naming the comparison shown before).
func (v *verdictView) selectShown() {
	if t, ok := v.titles[v.current]; ok {
		if v.pick.Selected != t {
			v.pick.SetSelected(t)
		}
		return
	}
	v.pick.ClearSelected()
}

// comparisonTitle names a saved comparison in the picker, with the status that stands.
func comparisonTitle(c store.Comparison) string {
	return fmt.Sprintf("#%d  %s vs %s  (%s, %s)", c.ID, c.Baseline, c.Candidate, statusText(c.Status), c.CreatedAt)
}

func (v *verdictView) onPick(s string) {
	for id, t := range v.titles {
		if t == s && (id != v.current || v.unsaved) {
			v.open(id)
			return
		}
	}
}

// showStatus puts the analyst's status first, with the proposal beside it, here and on the
// Compare view when it shows this comparison.
func (v *verdictView) showStatus(cur store.Annotation) {
	status, spans := standing(v.rec, cur)
	v.proposed.show(status, spans)
	if c := v.u.compare; c != nil && c.record != nil && c.savedID != 0 && c.savedID == v.current {
		c.verdict.show(status, spans)
	}
}

// standing is the status that stands (the analyst's override, else the proposal) and the
// headline's spans after it, the override's reason and the proposal first.
func standing(rec compare.Record, cur store.Annotation) (model.Status, []report.Span) {
	status, spans := rec.Status, report.HeadlineOf(rec).Spans
	if o := cur.StatusOverride; o != "" {
		status = o
		override := fmt.Sprintf(lang.L("analyst's override of the proposed “%s”: %s"), statusText(rec.Status), cur.OverrideReason)
		spans = append([]report.Span{{Words: report.Lit(override + " — ")}}, spans...)
	}
	return status, spans
}

// open shows a saved comparison and its current annotation.
func (v *verdictView) open(id int64) {
	v.endSitting()
	_, rec, err := library.SavedRecord(v.u.st, id)
	if err != nil {
		v.problem.SetText(err.Error())
		return
	}
	v.current, v.unsaved, v.rec = id, false, rec
	if _, listed := v.titles[id]; !listed {
		v.reload() // saved since the list was read
	}
	v.saveHere.Hide()
	v.loading = true
	defer func() { v.loading = false }()
	v.pick.PlaceHolder = v.defaultPlaceholder()
	v.selectShown()
	v.causes.SetText(causesText(rec))
	cur, err := library.CurrentAnnotation(v.u.st, id)
	if err != nil {
		v.problem.SetText(err.Error())
	}
	v.showStatus(cur)
	v.shown = cur
	v.note.SetText(cur.Note)
	v.tags.SetText(strings.Join(cur.Tags, ", "))
	v.override.SetSelectedIndex(0)
	for i, st := range overrideStatuses {
		if st == cur.StatusOverride {
			v.override.SetSelectedIndex(i + 1)
		}
	}
	v.reason.SetText(cur.OverrideReason)
	v.setEnabled(true)
	v.showHistory()
}

// edited schedules a save of the fields as they are now.
func (v *verdictView) edited() {
	if v.loading || v.current == 0 {
		return
	}
	a := store.Annotation{ComparisonID: v.current, Replaces: v.shown.ID, ReplacesRevision: v.shown.Revision, Author: author(), Note: v.note.Text, Tags: splitTags(v.tags.Text),
		OverrideReason: strings.TrimSpace(v.reason.Text)}
	if i := v.override.SelectedIndex(); i > 0 {
		a.StatusOverride = overrideStatuses[i-1]
	}
	if a.StatusOverride != "" && a.OverrideReason == "" {
		v.problem.SetText(lang.L("An override needs a reason; it is saved once the reason is given."))
		return
	}
	v.problem.SetText("")
	v.mu.Lock()
	v.pending = &a
	if v.timer != nil {
		v.timer.Stop()
	}
	v.timer = time.AfterFunc(saveDelay, func() { onUI(v.flush) })
	v.mu.Unlock()
}

// endSitting writes a pending edit and starts a new history entry with the next edit (on
// leaving the view, opening another comparison, closing the window).
func (v *verdictView) endSitting() {
	v.flush()
	v.sitting.End()
}

// flush writes a pending edit now.
func (v *verdictView) flush() {
	v.mu.Lock()
	a := v.pending
	v.pending = nil
	if v.timer != nil {
		v.timer.Stop()
	}
	v.mu.Unlock()
	if a == nil {
		return
	}
	saved, err := v.sitting.Save(v.u.st, *a)
	if err != nil {
		// Another analyst's edit came first (a team library): theirs stays, reopening shows it.
		v.problem.SetText(lang.L("Not saved") + ": " + err.Error())
		return
	}
	if a.ComparisonID == v.current {
		v.shown = saved
		v.showStatus(*a)
		v.showHistory()
		v.reload()
	}
}

func (v *verdictView) showHistory() {
	hist, err := library.Annotations(v.u.st, v.current)
	if err != nil {
		v.problem.SetText(err.Error())
		return
	}
	if len(hist) == 0 {
		v.byline.SetText(lang.L("Not annotated yet."))
		v.history.SetText("")
		return
	}
	last := hist[len(hist)-1]
	v.byline.SetText(fmt.Sprintf(lang.L("Last edit by %s at %s"), last.Author, report.When(last.At)))
	var lines []string
	for i := len(hist) - 1; i >= 0 && len(lines) < 50; i-- {
		h := hist[i]
		line := fmt.Sprintf("%s  %s: %q", report.When(h.At), h.Author, firstLine(h.Note))
		if len(h.Tags) > 0 {
			line += "  [" + strings.Join(h.Tags, ", ") + "]"
		}
		if h.StatusOverride != "" {
			line += fmt.Sprintf("  → %s (%s)", h.StatusOverride, h.OverrideReason)
		}
		lines = append(lines, line)
	}
	v.history.SetText(strings.Join(lines, "\n"))
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

func splitTags(s string) []string {
	var out []string
	for _, t := range strings.Split(s, ",") {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// exportDialog offers the report formats for the saved comparisons.
func (v *verdictView) exportDialog() {
	if len(v.list) == 0 {
		dialog.ShowInformation(lang.L("Export"), lang.L("Save a comparison first."), v.u.win)
		return
	}
	v.flush()
	showExport(v.u, v.current)
}

// copyRecipe puts the comparison's rerun recipe on the clipboard, as `benchlens reproduce`
// prints it.
func (v *verdictView) copyRecipe() {
	if v.current == 0 {
		dialog.ShowInformation(lang.L("Copy rerun commands"), lang.L("Save a comparison first."), v.u.win)
		return
	}
	r, err := library.SavedRecipe(v.u.st, v.current)
	if err != nil {
		v.problem.SetText(err.Error())
		return
	}
	v.u.fyneApp.Clipboard().SetContent(library.Script(r, v.current))
	v.u.setStatus(lang.L("Rerun commands copied to the clipboard"))
}
