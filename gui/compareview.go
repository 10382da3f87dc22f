package gui

import (
	"fmt"
	"image"
	"image/color"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"
	"gonum.org/v1/plot"

	"benchlens/analysis/chart"
	"benchlens/analysis/compare"
	"benchlens/analysis/report"
	"benchlens/library"
	"benchlens/model"
)

// compareView puts a baseline arm beside a candidate arm: the verdict and its causes, the
// evidence checklist (green / amber / red, with what to record next time), the stage table,
// overlaid CDFs of TTFT (prefill) and TPOT / ITL (decode) on shared axes, the per-bucket
// deltas with their intervals, and both arms' utilisation.
type compareView struct {
	u       *App
	content fyne.CanvasObject

	baseline, candidate *widget.SelectEntry
	verdict             *widget.Label
	causes              *widget.Label
	checklist           *fyne.Container
	stages              *fyne.Container
	charts              map[string]*chartView
	save                *widget.Button

	mu      sync.Mutex
	gen     int
	record  *compare.Record
	sels    [2]string
	started time.Time
	// Took is the time the last comparison took from request to display (for benchmarks).
	Took time.Duration
	done func() // called after each display; tests wait on it
}

var compareCharts = []string{"ttft_cdf", "tpot_cdf", "itl_cdf", "stage_deltas", "bucket_deltas", "utilisation"}

func newCompareView(u *App) *compareView {
	v := &compareView{u: u, charts: map[string]*chartView{}}
	v.baseline = widget.NewSelectEntry(nil)
	v.baseline.SetPlaceHolder(lang.L("label or run ids"))
	v.candidate = widget.NewSelectEntry(nil)
	v.candidate.SetPlaceHolder(lang.L("label or run ids"))
	v.baseline.OnChanged = func(string) { v.schedule() }
	v.candidate.OnChanged = func(string) { v.schedule() }
	v.verdict = widget.NewLabelWithStyle(lang.L("Pick a baseline and a candidate arm."), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	v.causes = widget.NewLabel("")
	v.causes.Wrapping = fyne.TextWrapWord
	v.checklist = container.NewVBox()
	v.stages = container.NewVBox()
	v.save = widget.NewButton(lang.L("Save comparison"), v.onSave)
	v.save.Importance = widget.HighImportance
	v.save.Disable()
	var grid []fyne.CanvasObject
	for _, k := range compareCharts {
		c := newChartView(nil)
		v.charts[k] = c
		grid = append(grid, c)
	}
	pick := widget.NewForm(
		widget.NewFormItem(lang.L("Baseline"), v.baseline),
		widget.NewFormItem(lang.L("Candidate"), v.candidate),
	)
	left := container.NewVScroll(container.NewVBox(
		widget.NewCard(lang.L("Verdict"), "", container.NewVBox(v.verdict, v.causes, v.save)),
		widget.NewCard(lang.L("Evidence"), lang.L("What METHOD.md asks for, and what to record next time."), v.checklist),
		widget.NewCard(lang.L("Stages"), lang.L("Median of per-run medians; ~ = no significant change"), v.stages),
	))
	split := container.NewHSplit(left, container.NewVScroll(container.NewGridWrap(fyne.NewSize(460, 300), grid...)))
	split.SetOffset(0.42)
	v.content = container.NewBorder(pick, nil, nil, nil, split)
	v.reloadArms()
	return v
}

// reloadArms offers the library's labels in both pickers.
func (v *compareView) reloadArms() {
	labels, err := v.u.st.Labels()
	if err != nil {
		return
	}
	v.baseline.SetOptions(labels)
	v.candidate.SetOptions(labels)
	if v.baseline.Text == "" && v.candidate.Text == "" {
		base, cand := defaultArms(v.u, labels)
		if base != "" && cand != "" {
			v.baseline.SetText(base)
			v.candidate.SetText(cand)
		}
	}
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
	roles, err := u.st.LabelRoles()
	if err != nil {
		return "", ""
	}
	base, cand = "", ""
	for _, l := range labels {
		switch roles[l] {
		case "baseline":
			if base == "" {
				base = l
			}
		case "candidate":
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
		v.baseline.SetText(sel)
	} else {
		v.candidate.SetText(sel)
	}
}

func (v *compareView) settingsChanged() { v.schedule() }

// schedule runs the comparison off the UI thread; a newer request supersedes an older one.
func (v *compareView) schedule() {
	base, cand := strings.TrimSpace(v.baseline.Text), strings.TrimSpace(v.candidate.Text)
	if base == "" || cand == "" {
		return
	}
	v.mu.Lock()
	v.gen++
	gen := v.gen
	v.started = time.Now()
	v.mu.Unlock()
	v.verdict.SetText(lang.L("Comparing…"))
	settings := v.u.settings.Settings()
	st, cache := v.u.st, v.u.arms
	go func() {
		b, errB := cache.get(st, base)
		c, errC := cache.get(st, cand)
		var rec compare.Record
		var plots map[string]*plot.Plot
		err := firstErr(errB, errC)
		if err == nil {
			rec = compare.Compare(b, c, settings)
			plots, err = chart.ForComparison(b, c, rec)
		}
		fyne.Do(func() {
			v.mu.Lock()
			current := gen == v.gen
			v.mu.Unlock()
			if !current {
				return
			}
			if err != nil {
				v.record = nil
				v.save.Disable()
				v.verdict.SetText(err.Error())
				v.verdict.Importance = widget.DangerImportance
				v.verdict.Refresh()
				return
			}
			p := v.u.fyneApp.Preferences()
			p.SetString("compare.baseline", base)
			p.SetString("compare.candidate", cand)
			v.display(rec, plots, base, cand)
		})
	}()
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
func statusImportance(status string) widget.Importance {
	switch status {
	case compare.Established:
		return widget.SuccessImportance
	case compare.Offset:
		return widget.WarningImportance
	case compare.Zero:
		return widget.MediumImportance
	}
	return widget.DangerImportance
}

func (v *compareView) display(rec compare.Record, plots map[string]*plot.Plot, base, cand string) {
	v.record, v.sels = &rec, [2]string{base, cand}
	v.save.Enable()
	v.verdict.SetText(fmt.Sprintf(lang.L("Verdict: %s"), statusText(rec.Status)))
	v.verdict.Importance = statusImportance(rec.Status)
	v.verdict.Refresh()
	var causes []string
	for _, c := range rec.Causes {
		causes = append(causes, "• "+c.Code+": "+c.Reason)
	}
	for _, n := range rec.Notes {
		causes = append(causes, "· "+n)
	}
	for _, w := range rec.Warnings {
		causes = append(causes, "⚠ "+w)
	}
	if len(causes) == 0 {
		causes = append(causes, lang.L("No cause against the attribution."))
	}
	v.causes.SetText(strings.Join(causes, "\n"))

	v.checklist.Objects = nil
	for _, c := range rec.Checklist() {
		v.checklist.Add(checkRow(c))
	}
	v.checklist.Refresh()

	v.stages.Objects = []fyne.CanvasObject{stageTable(rec)}
	v.stages.Refresh()

	for _, k := range compareCharts {
		p := plots[k]
		v.charts[k].setRender(func(w, h int) (image.Image, error) {
			if p == nil {
				return nil, nil
			}
			return chart.Image(p, w, h)
		})
	}
	v.mu.Lock()
	v.Took = time.Since(v.started)
	done := v.done
	v.mu.Unlock()
	v.u.setStatus(fmt.Sprintf(lang.L("Compared %s (%d runs) with %s (%d runs) in %d ms"), base, len(rec.Arms.Baseline.Runs), cand, len(rec.Arms.Candidate.Runs), v.Took.Milliseconds()))
	if done != nil {
		done()
	}
}

// statusText is a verdict in plain words.
func statusText(s string) string {
	switch s {
	case compare.Established:
		return lang.L("gain established")
	case compare.Zero:
		return lang.L("zero gain")
	case compare.Offset:
		return lang.L("gain offset by overhead")
	}
	return lang.L("gain not established")
}

var checkColours = map[string]color.NRGBA{
	compare.CheckOK:   {R: 0x2e, G: 0x9e, B: 0x44, A: 0xff},
	compare.CheckWarn: {R: 0xe3, G: 0x9b, B: 0x12, A: 0xff},
	compare.CheckFail: {R: 0xd2, G: 0x3f, B: 0x31, A: 0xff},
}

// checkRow is one line of the checklist: a coloured dot, the check, its reason and a hint.
func checkRow(c compare.Check) fyne.CanvasObject {
	dot := canvas.NewCircle(checkColours[c.State])
	dot.StrokeWidth = 0
	dotBox := container.New(layout.NewGridWrapLayout(fyne.NewSize(14, 14)), dot)
	name := widget.NewLabelWithStyle(lang.L(c.Name), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	reason := widget.NewLabel(c.Reason)
	reason.Wrapping = fyne.TextWrapWord
	body := container.NewVBox(reason)
	if c.Hint != "" {
		hint := widget.NewLabelWithStyle(lang.L("Next time")+": "+c.Hint, fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
		hint.Wrapping = fyne.TextWrapWord
		body.Add(hint)
	}
	return container.NewBorder(nil, nil, container.NewVBox(container.NewHBox(dotBox, name)), nil, body)
}

// stageTable is the benchstat-style table of the stages.
func stageTable(rec compare.Record) fyne.CanvasObject {
	grid := container.NewGridWithColumns(4,
		bold(lang.L("stage")), bold(lang.L("baseline")), bold(lang.L("candidate")), bold(lang.L("delta")))
	rows := []struct{ key, title string }{
		{model.TTFT, "TTFT (prefill)"}, {model.TPOT, "TPOT (decode)"}, {model.ITL, "ITL (decode)"},
		{model.E2EL, "E2E latency"}, {"e2e_throughput", "output tok/s"},
	}
	for _, r := range rows {
		d, ok := rec.Perf[r.key]
		if !ok || !d.Baseline.Known() {
			continue
		}
		delta := widget.NewLabel(report.Delta(d))
		delta.Wrapping = fyne.TextWrapWord
		switch {
		case d.Better:
			delta.Importance = widget.SuccessImportance
		case d.Worse:
			delta.Importance = widget.DangerImportance
		}
		grid.Add(widget.NewLabel(r.title))
		grid.Add(widget.NewLabel(report.Value(d.Baseline) + " " + d.Unit))
		grid.Add(widget.NewLabel(report.Value(d.Candidate) + " " + d.Unit))
		grid.Add(delta)
	}
	return grid
}

func bold(s string) *widget.Label {
	return widget.NewLabelWithStyle(s, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
}

// onSave stores the comparison and opens it in the verdict view.
func (v *compareView) onSave() {
	if v.record == nil {
		return
	}
	id, err := library.SaveComparison(v.u.st, v.sels[0], v.sels[1], *v.record)
	if err != nil {
		dialog.ShowError(err, v.u.win)
		return
	}
	v.u.verdict.reload()
	v.u.verdict.open(id)
	v.u.showView(viewVerdict)
}
