package gui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"benchlens/analysis/compare"
	"benchlens/analysis/report"
	"benchlens/analysis/slo"
	"benchlens/model"
)

// sloPanel is the compare view's SLO card (METHOD.md rule 14), beside the Stages table: an
// SLO for this comparison only (over the library's, stored with the verdict when saved), each
// matched point's attainment and goodput per arm with their changes, which limit binds, the
// capacity under the SLO, the Pareto frontier and the saturated points. The capacity and
// Pareto charts are in the chart column.
type sloPanel struct {
	content *widget.Card
	entry   *widget.Entry // the comparison's own SLO; empty: the library's
	problem *widget.Label
	body    *fyne.Container

	override string    // the valid SLO typed for the pair on screen, "" for the library's
	pair     [2]string // the pair the override was typed for
	clearing bool      // the entry is being emptied for another pair, not edited
	onChange func()    // compares again under the SLO typed
}

func newSLOPanel(onChange func()) *sloPanel {
	p := &sloPanel{entry: widget.NewEntry(), problem: widget.NewLabel(""), body: container.NewVBox(), onChange: onChange}
	p.entry.SetPlaceHolder(lang.L("e.g. ttft<=200,tpot<=30; empty: the library's SLO (Settings)"))
	p.entry.OnChanged = p.onEdited
	p.problem.Importance = widget.DangerImportance
	p.problem.Wrapping = fyne.TextWrapWord
	p.problem.Hide()
	field := container.NewBorder(nil, nil, widget.NewLabel(lang.L("For this comparison")), nil, p.entry)
	p.content = widget.NewCard(lang.L("SLO"), lang.L("Median over runs; ~ = no significant change"),
		container.NewVBox(field, p.problem, p.body))
	return p
}

// onEdited takes a valid SLO typed in the card for the pair on screen and compares again.
func (p *sloPanel) onEdited(text string) {
	if p.clearing {
		return
	}
	text = strings.TrimSpace(text)
	s, err := model.ParseSLO(text)
	if err != nil {
		p.problem.SetText(lang.L("SLO") + ": " + err.Error())
		p.problem.Show()
		return
	}
	p.problem.Hide()
	if s.String() == p.override {
		return
	}
	p.override = s.String()
	if p.onChange != nil {
		p.onChange()
	}
}

// apply puts the comparison's own SLO over the library's settings for the pair base/cand;
// another pair starts from the library's again.
func (p *sloPanel) apply(set compare.Settings, base, cand string) compare.Settings {
	if pair := [2]string{base, cand}; pair != p.pair {
		p.pair = pair
		if p.override != "" || p.entry.Text != "" {
			p.clearing = true
			p.entry.SetText("")
			p.clearing = false
			p.override = ""
			p.problem.Hide()
		}
	}
	if p.override != "" {
		set.SLO = p.override
	}
	return set
}

// show fills the card from a comparison.
// page is the compare view's scroll, which the table wraps to.
func (p *sloPanel) show(rec compare.Record, page *container.Scroll) {
	var rows []fyne.CanvasObject
	sec := rec.SLO
	if sec == nil {
		rows = append(rows, wrapped(lang.L("No SLO set: type one above for this comparison, or in Settings for every comparison.")))
	} else {
		rows = append(rows, sloRows(sec, page)...)
	}
	for _, s := range rec.Saturated {
		l := wrapped(fmt.Sprintf(lang.L("saturated: %s (%s): %s"), s.Label, s.Arm, strings.Join(s.Reasons, "; ")))
		l.Importance = widget.WarningImportance
		rows = append(rows, l)
	}
	p.body.Objects = rows
	p.body.Refresh()
}

// clear empties the card while a comparison is on its way.
func (p *sloPanel) clear() {
	p.body.Objects = nil
	p.body.Refresh()
}

// sloRows are the section's lines: the change the verdict can rest on, the table, the binding
// limit, the capacity, the Pareto frontier and the notes.
func sloRows(sec *slo.Section, page *container.Scroll) []fyne.CanvasObject {
	head := fmt.Sprintf(lang.L("%s: attainment ~ at every point"), sec.Objective)
	if h, ok := report.SLOHeadline(sec); ok {
		head = sec.Objective + ": " + h
	}
	headline := bold(head)
	headline.Wrapping = fyne.TextWrapWord
	if g, ok := sec.Gain(); ok {
		headline.Importance = widget.SuccessImportance
		if !g.Better {
			headline.Importance = widget.DangerImportance
		}
	}
	rows := []fyne.CanvasObject{headline, sloTable(sec, page)}
	if sec.Binding != "" {
		rows = append(rows, wrapped(lang.L("Binding limit")+": "+sec.Binding))
	}
	if c := report.CapacityText(sec.Capacity); c != "" {
		rows = append(rows, wrapped(fmt.Sprintf(lang.L("Capacity under the SLO (attainment ≥ %.0f %%)"), 100*sec.Target)+": "+c))
	}
	if pr := report.ParetoText(sec); pr != "" {
		rows = append(rows, wrapped(lang.L("Pareto frontier")+" "+pr))
	}
	for _, n := range sec.Notes {
		l := wrapped("· " + n)
		l.Importance = widget.WarningImportance
		rows = append(rows, l)
	}
	return rows
}

// sloTable is one row per matched point, narrow enough for the left column: the point on
// the sweep's axis ("c=16"), each arm's attainment (median, range over repeats) over its
// goodput, the attainment change over its interval, and the goodput change, each with its test.
func sloTable(sec *slo.Section, page *container.Scroll) fyne.CanvasObject {
	b := newTableBuilder(5)
	b.row(bold(lang.L("point")), bold(lang.L("baseline")), bold(lang.L("candidate")), bold(lang.L("attainment")), bold(lang.L("goodput")))
	for _, p := range sec.Points {
		label := widget.NewLabel(sec.Where([]string{p.Label}))
		if p.Saturated() {
			label.SetText(label.Text + "\n" + lang.L("saturated"))
			label.Importance = widget.WarningImportance
		}
		gp := deltaLabel(p.Goodput)
		gp.SetText(strings.Replace(gp.Text, " (", "\n(", 1))
		att := deltaLabel(p.Attainment)
		if iv := report.SLOInterval(p.Attainment); iv != "" {
			att.SetText(att.Text + "\n" + iv)
		}
		b.row(label, widget.NewLabel(armShare(p.Baseline)+"\n"+armGoodput(p.Baseline)),
			widget.NewLabel(armShare(p.Candidate)+"\n"+armGoodput(p.Candidate)), att, gp)
	}
	return b.build(page)
}

// armShare is an arm's attainment at a point: "62 % [58-64]", or why not computable.
func armShare(a slo.ArmPoint) string {
	if !a.Attainment.Median.Known() {
		return lang.L("not computable")
	}
	s := report.Share(a.Attainment.Median)
	if a.Attainment.Min != a.Attainment.Max {
		s += fmt.Sprintf(" [%.0f-%.0f]", 100*a.Attainment.Min.F(), 100*a.Attainment.Max.F())
	}
	return s
}

// armGoodput is an arm's goodput at a point: "3.1 req/s".
func armGoodput(a slo.ArmPoint) string {
	if !a.Goodput.Median.Known() {
		return "-"
	}
	return a.Goodput.Median.Readable() + " req/s"
}

// deltaLabel is a change of attainment or goodput, coloured when significant.
func deltaLabel(d slo.Delta) *widget.Label {
	l := widget.NewLabel(sloDeltaShort(d))
	switch {
	case d.Better:
		l.Importance = widget.SuccessImportance
	case d.Worse:
		l.Importance = widget.DangerImportance
	}
	return l
}

// sloDeltaShort is a change with its p, the runs per arm being in the card's subtitle:
// "+30.0 pp (p=0.0117)", "~ +0.0 pp (p=1)".
func sloDeltaShort(d slo.Delta) string {
	s := report.SLODelta(d)
	if i := strings.Index(s, " n="); i >= 0 {
		s = s[:i] + ")"
	}
	return s
}

func wrapped(s string) *widget.Label {
	l := widget.NewLabel(s)
	l.Wrapping = fyne.TextWrapWord
	return l
}

// powerRow is the Stages card's line on how many runs a change needs (issue 28 item 5):
// "5+5 runs detect ≥ 3.1 % on TPOT; for 2 % run 14 per arm"; nil when the runs say nothing.
func powerRow(rec compare.Record) fyne.CanvasObject {
	h, ok := compare.PowerHint(rec.Measurement.Power)
	if !ok {
		return nil
	}
	l := widget.NewLabelWithStyle(lang.L("How many runs")+": "+report.HintWords(h).In(words()), fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
	l.Wrapping = fyne.TextWrapWord
	return l
}
