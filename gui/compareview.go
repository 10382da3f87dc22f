package gui

import (
	"fmt"
	"image/color"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"gonum.org/v1/plot"

	"benchlens/analysis/chart"
	"benchlens/analysis/compare"
	"benchlens/analysis/report"
	"benchlens/library"
	"benchlens/model"
	"benchlens/store"
)

// compareView puts a baseline arm beside a candidate arm: the verdict and its causes, the
// evidence checklist (green / amber / red, with what to record next time), the stage table,
// overlaid CDFs of TTFT (prefill) and TPOT / ITL (decode) on shared axes, the per-bucket
// deltas with their intervals, and both arms' utilisation.
type compareView struct {
	u       *App
	content fyne.CanvasObject

	baseline, candidate *armPicker
	verdict             *headlineView
	causes              *widget.Label
	checklist           *fyne.Container
	conditions          *fyne.Container
	families            *familiesPanel
	stages              *fyne.Container
	charts              map[string]*chartView
	chartBox            *fyne.Container // the charts' grid: a chart the pair has no data for is hidden
	points              *loadPointsPanel
	slo                 *sloPanel // the SLO card (rule 14), with this comparison's own SLO
	save                *widget.Button
	declare             *widget.Button              // "Declare the change…" (declare.go)
	declaredLine        *widget.Label               // what was declared with the comparison
	declared            map[[2]string]*model.Change // by pair of arms
	// sections are the cards of the left column, top to bottom; a new panel is one more.
	sections *fyne.Container
	scroll   *container.Scroll  // scrolls the sections; a new comparison starts at its headline
	split    *container.Split   // the sections beside the charts (App.proportion)
	savedID  int64              // the library id of the comparison on screen once saved, else 0
	axis     *widget.RadioGroup // the CDFs' x axis: clipped, full or log
	arms     [2]compare.Arm     // the arms on screen, to redraw the CDFs on another axis
	// point picks the load point of a sweep the stages, distributions, buckets and spread
	// show (rule 9); pointRow holds it and hides for arms of one point.
	point    *widget.Select
	pointRow *fyne.Container
	picking  bool // the selector is being filled: not a pick

	// The fields below are the UI thread's: written and read only there (onUI, handlers).
	gen     int // comparisons asked for: only the newest is shown
	draws   int // redraws asked for (another axis or load point): only the newest is shown
	record  *compare.Record
	sels    [2]string
	started time.Time
	// Took is the time the last comparison took from request to display (for benchmarks).
	Took time.Duration
	done func() // called after each display; tests wait on it
}

var compareCharts = chart.Keys

func newCompareView(u *App) *compareView {
	v := &compareView{u: u, charts: map[string]*chartView{}, points: newLoadPointsPanel()}
	v.slo = newSLOPanel(func() { v.schedule() })
	v.baseline = newArmPicker(lang.L("label or run ids"))
	v.candidate = newArmPicker(lang.L("label or run ids"))
	// Either field chosen compares what both say: the other's typed text is taken as it is.
	v.baseline.OnChosen = func(string) { v.candidate.commit(); v.schedule() }
	v.candidate.OnChosen = func(string) { v.baseline.commit(); v.schedule() }
	v.verdict = newHeadlineView(lang.L("Pick a baseline and a candidate arm."))
	v.causes = widget.NewLabel("")
	v.causes.Wrapping = fyne.TextWrapWord
	v.checklist = container.NewVBox()
	v.conditions = container.NewVBox()
	v.stages = container.NewVBox()
	v.families = newFamiliesPanel()
	v.save = widget.NewButton(lang.L("Save comparison"), v.onSave)
	v.save.Importance = widget.HighImportance
	v.save.Disable()
	v.declared = map[[2]string]*model.Change{}
	v.declare = widget.NewButton(lang.L("Declare the change…"), v.onDeclare)
	v.declare.Disable()
	v.declaredLine = widget.NewLabel("")
	v.declaredLine.Wrapping = fyne.TextWrapWord
	v.declaredLine.Hide()
	var grid []fyne.CanvasObject
	for _, k := range compareCharts {
		c := newChartView(nil)
		c.u, c.name = u, k
		v.charts[k] = c
		grid = append(grid, c)
	}
	pick := container.NewGridWithColumns(2,
		container.NewBorder(nil, nil, widget.NewLabel(lang.L("Baseline")), nil, v.baseline.content),
		container.NewBorder(nil, nil, widget.NewLabel(lang.L("Candidate")), nil, v.candidate.content),
	)
	v.sections = container.NewVBox(
		widget.NewCard("", "", container.NewVBox(v.verdict.content, v.causes, v.declaredLine, container.NewHBox(v.save, v.declare))),
		widget.NewCard(lang.L("Evidence"), lang.L("What METHOD.md asks for, and what to record next time."), v.checklist),
		widget.NewCard(lang.L("Stages"), lang.L("Median of per-run medians; ~ = no significant change"), v.stages),
		v.slo.content,
		v.points.content,
		widget.NewCard(lang.L("Conditions"), lang.L("What was recorded about each arm, side by side."), v.conditions),
		widget.NewCard(lang.L("Operator families"), lang.L("Device time by kernel family, from the profiler traces"), v.families.box),
	)
	charts := &chartGrid{}
	v.chartBox = container.New(charts, grid...)
	chartScroll := container.NewVScroll(v.chartBox)
	charts.within = chartScroll
	v.axis = widget.NewRadioGroup(axisNames(), func(string) { v.redrawCDFs() })
	v.axis.Horizontal = true
	v.axis.Required = true
	v.axis.SetSelected(axisNames()[0])
	chartPane := container.NewBorder(container.NewHBox(widget.NewLabel(lang.L("CDF x axis")), v.axis), nil, nil, nil, chartScroll)
	v.scroll = vscroll(v.sections)
	v.split = container.NewHSplit(v.scroll, chartPane)
	v.split.SetOffset(0.56)
	v.point = widget.NewSelect(nil, func(string) { v.onPoint() })
	v.pointRow = container.NewBorder(nil, nil, widget.NewLabel(lang.L("Load point")), nil, v.point)
	v.pointRow.Hide()
	v.content = container.NewBorder(container.NewVBox(pick, v.pointRow), nil, nil, nil, v.split)
	v.reloadArms()
	return v
}

// reloadArms offers the library's labels in both pickers; with none chosen yet it picks the
// arms to show first and compares them.
func (v *compareView) reloadArms() {
	labels, err := library.Labels(v.u.st)
	if err != nil {
		return
	}
	v.baseline.setOptions(labels)
	v.candidate.setOptions(labels)
	if v.baseline.chosen == "" && v.candidate.chosen == "" {
		base, cand := defaultArms(v.u, labels)
		if base != "" && cand != "" {
			v.baseline.chosen = base
			v.baseline.entry.SetText(base)
			v.candidate.setChosen(cand)
		}
	}
}

// libraryChanged compares the chosen arms again after an import, relabel or delete: the runs
// under a label may have changed, and the comparison on screen with them. It is cleared at
// once and recomputed.
func (v *compareView) libraryChanged() {
	chosen := v.baseline.chosen != "" && v.candidate.chosen != ""
	v.reloadArms()
	if chosen {
		v.schedule()
	}
}

// reset forgets the arms and the comparison: another library is open, whose labels and run
// ids name other runs.
func (v *compareView) reset() {
	v.gen++ // a comparison still on its way belongs to the old library
	v.declared = map[[2]string]*model.Change{}
	v.baseline.clearChoice()
	v.candidate.clearChoice()
	v.arms = [2]compare.Arm{}
	v.clear(lang.L("Pick a baseline and a candidate arm."), widget.MediumImportance)
}

// defaultArms picks the arms to show first: the last ones compared, else the first baseline
// and candidate labels.
func defaultArms(u *App, labels []string) (string, string) {
	p := u.fyneApp.Preferences()
	base, cand := p.String("compare.baseline"), p.String("compare.candidate")
	has := func(s string) bool {
		for _, l := range labels {
			if l == s {
				return true
			}
		}
		return false
	}
	if has(base) && has(cand) {
		return base, cand
	}
	roles, err := library.LabelRoles(u.st)
	if err != nil {
		return "", ""
	}
	base, cand = "", ""
	for _, l := range labels {
		switch roles[l] {
		case model.RoleBaseline:
			if base == "" {
				base = l
			}
		case model.RoleCandidate:
			if cand == "" {
				cand = l
			}
		}
	}
	return base, cand
}

// setArm fills one picker (from the library's "Use as …" buttons).
func (v *compareView) setArm(baseline bool, sel string) {
	if baseline {
		v.baseline.setChosen(sel)
	} else {
		v.candidate.setChosen(sel)
	}
}

func (v *compareView) settingsChanged() { v.schedule() }

// schedule runs the comparison of the chosen arms off the UI thread; a newer request
// supersedes an older one. What the previous pair showed is cleared at once.
func (v *compareView) schedule() {
	base, cand := v.baseline.chosen, v.candidate.chosen
	if base == "" || cand == "" {
		v.gen++
		v.clear(lang.L("Pick a baseline and a candidate arm."), widget.MediumImportance)
		return
	}
	v.gen++
	gen := v.gen
	v.started = time.Now()
	v.clear(fmt.Sprintf(lang.L("Comparing %s with %s…"), base, cand), widget.MediumImportance)
	settings := v.slo.apply(v.u.settings.Settings(), base, cand)
	st, cache, opt := v.u.st, v.u.arms, v.chartOptions()
	point := v.pointFor(base, cand)
	declared := v.declaredFor(base, cand)
	go func() {
		b, errB := cache.get(st, base)
		c, errC := cache.get(st, cand)
		c.Declared = declared
		var rec compare.Record
		var plots map[string]*plot.Plot
		var reads map[string]chart.Reader
		err := firstErr(errB, errC)
		if err == nil {
			err = library.DistinctArms(b, c)
		}
		var saved int64
		if err == nil {
			rec = compare.Compare(b, c, settings)
			plots, reads, err = chartsAt([2]compare.Arm{b, c}, rec, point, opt)
		}
		if err == nil {
			saved, err = library.FindSaved(st, base, cand, rec)
		}
		onUI(func() {
			if gen != v.gen {
				return // a newer request is on its way
			}
			if err != nil {
				v.clear(err.Error(), widget.DangerImportance)
				// The status said which pair was compared last: it would name the previous pair
				// under this one's error.
				v.u.setStatus(fmt.Sprintf(lang.L("Could not compare %s with %s"), base, cand))
				v.finished()
				return
			}
			p := v.u.fyneApp.Preferences()
			p.SetString("compare.baseline", base)
			p.SetString("compare.candidate", cand)
			v.arms = [2]compare.Arm{b, c}
			v.display(rec, plots, reads, base, cand, saved, point)
		})
	}()
}

// axisNames are the CDF x axis choices, in chart.XAxis order.
func axisNames() []string {
	return []string{lang.L("clipped"), lang.L("full"), lang.L("log")}
}

// chartOptions are the options the compare charts are drawn with.
func (v *compareView) chartOptions() chart.Options {
	opt := chart.Options{Tr: v.u.chartTr}
	for i, n := range axisNames() {
		if n == v.axis.Selected {
			opt.XAxis = chart.XAxis(i)
		}
	}
	return opt
}

// redrawCDFs draws the charts on screen again, off the UI thread: on the chosen x axis, at
// the chosen load point.
func (v *compareView) redrawCDFs() {
	if v.record == nil {
		return
	}
	v.draws++ // an older redraw, of another point, must not land after this one
	gen, draw := v.gen, v.draws
	rec, arms, opt, point := *v.record, v.arms, v.chartOptions(), v.pointLabel()
	go func() {
		plots, reads, err := chartsAt(arms, rec, point, opt)
		onUI(func() {
			if err != nil || gen != v.gen || draw != v.draws {
				return
			}
			v.showCharts(plots, reads)
		})
	}()
}

// showCharts puts the charts in place, hiding those the comparison has no data for.
func (v *compareView) showCharts(plots map[string]*plot.Plot, reads map[string]chart.Reader) {
	for _, k := range compareCharts {
		c := v.charts[k]
		c.setPlot(plots[k], reads[k])
		if plots[k] == nil { // e.g. the load curves of arms of one load point
			c.Hide()
		} else {
			c.Show()
		}
	}
	v.chartBox.Refresh()
}

// clear removes the previous pair's evidence and shows msg in its place.
func (v *compareView) clear(msg string, imp widget.Importance) {
	v.record, v.savedID = nil, 0
	v.showSaved()
	v.save.Disable()
	v.declare.Disable()
	v.declaredLine.Hide()
	if v.u.verdict != nil { // nil while the app is being built
		v.u.verdict.compareCleared()
	}
	v.verdict.prompt(msg, imp)
	v.causes.SetText("")
	v.checklist.RemoveAll()
	v.conditions.RemoveAll()
	v.stages.RemoveAll()
	v.slo.clear()
	v.pointRow.Hide()
	for _, c := range v.charts {
		c.clear()
	}
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// statusImportance colours a verdict.
func statusImportance(status model.Status) widget.Importance {
	switch status {
	case model.Established:
		return widget.SuccessImportance
	case model.Offset:
		return widget.WarningImportance
	case model.Zero:
		return widget.MediumImportance
	}
	return widget.DangerImportance
}

// display shows a comparison at a load point ("": all); savedID is the saved comparison it
// repeats, if any.
func (v *compareView) display(rec compare.Record, plots map[string]*plot.Plot, reads map[string]chart.Reader, base, cand string, savedID int64, point string) {
	v.record, v.sels, v.savedID = &rec, [2]string{base, cand}, savedID
	v.showSaved()
	v.save.Enable()
	v.declare.Enable()
	if t := declaredText(v.declaredFor(base, cand)); t != "" {
		v.declaredLine.SetText(t)
		v.declaredLine.Show()
	}
	var cur store.Annotation // a saved comparison's analyst status stands first
	if savedID != 0 {
		cur, _ = library.CurrentAnnotation(v.u.st, savedID)
	}
	v.verdict.show(standing(rec, cur))
	v.causes.SetText(causesText(rec))

	v.checklist.Objects = nil
	for _, c := range rec.Checklist() {
		v.checklist.Add(checkRow(c))
	}
	v.checklist.Refresh()

	v.showPoints(rec, point)
	v.slo.show(rec, v.scroll)
	v.conditions.Objects = []fyne.CanvasObject{conditionsTable(rec, v.scroll)}
	v.conditions.Refresh()
	v.families.set(rec.Families)
	v.points.show(rec)
	v.sections.Refresh() // the load points panel may have appeared or gone

	v.showCharts(plots, reads)
	v.scroll.ScrollToTop() // a new comparison is read from its headline
	v.u.verdict.follow(rec, base, cand, savedID)
	v.Took = time.Since(v.started)
	v.u.setStatus(fmt.Sprintf(lang.L("Compared %s (%d runs) with %s (%d runs) in %d ms"), base, len(rec.Arms.Baseline.Runs), cand, len(rec.Arms.Candidate.Runs), v.Took.Milliseconds()))
	v.finished()
}

// finished tells a waiting test that a comparison request has been answered.
func (v *compareView) finished() {
	if v.done != nil {
		v.done()
	}
}

// causesText lists the causes in words with their codes, then notes and warnings.
func causesText(rec compare.Record) string {
	var lines []string
	for _, c := range rec.Causes {
		lines = append(lines, "• "+codeText(c.Code)+": "+c.Reason)
	}
	for _, n := range rec.Notes {
		lines = append(lines, "· "+n)
	}
	for _, w := range report.SortedWarnings(rec.Warnings) {
		lines = append(lines, "⚠ "+report.WarningWords(w).In(words()))
	}
	if len(lines) == 0 {
		lines = append(lines, lang.L("No cause against the attribution."))
	}
	return strings.Join(lines, "\n")
}

// codeText is a cause code in words with the code beside it: "load drifted (load_drift)",
// from the record's words (report).
func codeText(code model.CauseCode) string { return report.CauseLabel(code).In(words()) }

// hintsText is a check's hints in the app's words (report.HintsWords).
func hintsText(c compare.Check) string {
	hs := c.Hints
	if len(hs) == 0 {
		hs = []model.Hint{{Key: c.Hint}}
	}
	return report.HintsWords(hs).In(words())
}

// statusText is a verdict in plain words.
func statusText(s model.Status) string { return report.StatusWords(s).In(words()) }

var checkColours = map[model.CheckState]color.NRGBA{
	model.CheckOK:   {R: 0x2e, G: 0x9e, B: 0x44, A: 0xff},
	model.CheckWarn: {R: 0xc7, G: 0x85, B: 0x00, A: 0xff},
	model.CheckFail: {R: 0xd2, G: 0x3f, B: 0x31, A: 0xff},
}

// checkGlyphs tell the states apart without colour (colour-blind readers, greyscale prints).
var checkGlyphs = map[model.CheckState]string{model.CheckOK: "✓", model.CheckWarn: "!", model.CheckFail: "✗"}

// checkNameWidth lines the checks' reasons up in one column.
const checkNameWidth = 130

// checkRow is one line of the checklist: a coloured glyph, the check, its reason and, when
// something is missing or wrong, what to record next time.
func checkRow(c compare.Check) fyne.CanvasObject {
	glyph := canvas.NewText(checkGlyphs[c.State], checkColours[c.State])
	glyph.TextStyle = fyne.TextStyle{Bold: true}
	glyph.TextSize = theme.TextSubHeadingSize()
	glyph.Alignment = fyne.TextAlignCenter
	glyphBox := container.New(layout.NewGridWrapLayout(fyne.NewSize(20, 24)), glyph)
	name := widget.NewLabelWithStyle(lang.L(c.Name), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	reason := widget.NewLabel(c.Reason)
	reason.Wrapping = fyne.TextWrapWord
	body := container.NewVBox(reason)
	if c.Hint != "" && c.State != model.CheckOK {
		hint := widget.NewLabelWithStyle(lang.L("Next time")+": "+hintsText(c), fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
		hint.Wrapping = fyne.TextWrapWord
		body.Add(hint)
	}
	head := container.New(layout.NewGridWrapLayout(fyne.NewSize(checkNameWidth, name.MinSize().Height)), name)
	return container.NewBorder(nil, nil, container.NewVBox(container.NewHBox(glyphBox, head)), nil, body)
}

// tailText is how the p90 and p99 moved: "+1.2 % / +8.0 %" (descriptive, untested).
func tailText(t compare.Tail) string {
	if !t.P90Delta.Known() && !t.P99Delta.Known() {
		return "-"
	}
	f := func(n model.Num) string {
		if !n.Known() {
			return "?"
		}
		return compare.Pct(n.F())
	}
	return f(t.P90Delta) + " / " + f(t.P99Delta)
}

// conditionStates map a condition's state to the checklist's glyph and colour.
var conditionStates = map[model.ConditionState]model.CheckState{model.ConditionSame: model.CheckOK, model.ConditionDiffers: model.CheckFail, model.ConditionUnknown: model.CheckWarn}

func conditionWord(state model.ConditionState) string {
	switch state {
	case model.ConditionSame:
		return lang.L("same")
	case model.ConditionDiffers:
		return lang.L("differs")
	}
	return lang.L("unknown")
}

// deltaText is the change in %, with benchstat's "~" when it is not significant: the CLI's
// format too (report.ShortDelta).
func deltaText(d compare.StageDelta) string { return report.ShortDelta(d) }

// intervalText is the interval of the change; the column header says whether it is over runs
// or, with one run per arm, over requests.
func intervalText(d compare.StageDelta) string { return report.Interval(d) }

func bold(s string) *widget.Label {
	return widget.NewLabelWithStyle(s, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
}

// saveOnce stores the comparison on screen unless it already is, and returns its id.
func (v *compareView) saveOnce() (int64, error) {
	if v.record == nil {
		return 0, fmt.Errorf("%s", lang.L("no comparison on screen"))
	}
	if v.savedID != 0 {
		return v.savedID, nil
	}
	id, err := library.SaveComparison(v.u.st, v.sels[0], v.sels[1], *v.record)
	if err != nil {
		return 0, err
	}
	v.savedID = id
	v.showSaved()
	v.u.verdict.reload()
	return id, nil
}

// showSaved says on the save button whether the comparison on screen is saved already.
func (v *compareView) showSaved() {
	if v.savedID != 0 {
		v.save.SetText(fmt.Sprintf(lang.L("Saved as #%d: annotate"), v.savedID))
	} else {
		v.save.SetText(lang.L("Save comparison"))
	}
}

// onSave stores the comparison and opens it in the verdict view.
func (v *compareView) onSave() {
	id, err := v.saveOnce()
	if err != nil {
		dialog.ShowError(err, v.u.win)
		return
	}
	v.u.verdict.open(id)
	v.u.showView(viewVerdict)
}
