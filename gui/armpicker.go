package gui

import (
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// armPicker chooses an arm: a text field (a label or run ids) with a type-ahead list of the
// library's labels laid out under it. Typing only filters the list; an arm is chosen by Enter
// or by a tap on the list. The list is part of the window's layout, not a pop-up, so it never
// needs a canvas looked up from the widget (fyne's SelectEntry drop-down crashed when that
// lookup came back nil).
type armPicker struct {
	entry *widget.Entry
	// pending says the field holds text not compared yet (typed, no Enter).
	pending *widget.Label
	toggle  *widget.Button
	list    *widget.List
	content *fyne.Container // entry row + list
	listBox *fyne.Container
	spacer  *fyne.Container // gives the list its height

	options []string
	matches []string
	chosen  string
	// OnChosen runs on the UI thread when an arm is chosen (Enter, a tap, or setChosen).
	OnChosen func(sel string)
}

// pickerRows is how many labels the type-ahead list shows before it scrolls.
const pickerRows = 6

func newArmPicker(placeholder string) *armPicker {
	p := &armPicker{entry: widget.NewEntry(), pending: widget.NewLabel(lang.L("Not compared yet: press Enter or pick a label"))}
	p.entry.SetPlaceHolder(placeholder)
	p.entry.OnChanged = func(string) { p.filter(true); p.markPending() }
	p.pending.Importance = widget.WarningImportance
	p.pending.Truncation = fyne.TextTruncateEllipsis
	p.pending.Hide()
	p.entry.OnSubmitted = func(string) { p.submit() }
	p.list = widget.NewList(func() int { return len(p.matches) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(i widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(p.matches[i]) })
	p.list.OnSelected = func(i widget.ListItemID) {
		if i >= 0 && i < len(p.matches) {
			p.setChosen(p.matches[i])
		}
		p.list.UnselectAll()
	}
	p.toggle = widget.NewButtonWithIcon("", theme.MenuDropDownIcon(), func() {
		if p.listBox.Visible() {
			p.listBox.Hide()
			return
		}
		p.filter(false)
		p.listBox.Show()
	})
	p.spacer = container.New(fixedHeight(0))
	p.listBox = container.NewStack(p.spacer, p.list)
	p.listBox.Hide()
	p.content = container.NewVBox(container.NewBorder(nil, nil, nil, p.toggle, p.entry), p.pending, p.listBox)
	return p
}

// setOptions replaces the labels offered.
func (p *armPicker) setOptions(labels []string) {
	p.options = labels
	p.filter(false)
}

// filter keeps the labels that contain the typed text and shows them while typing; from the
// drop-down button (typed false) it offers every label.
func (p *armPicker) filter(typed bool) {
	q := ""
	if typed {
		q = strings.ToLower(strings.TrimSpace(p.entry.Text))
	}
	p.matches = p.matches[:0]
	exact := false
	for _, o := range p.options {
		if strings.Contains(strings.ToLower(o), q) {
			p.matches = append(p.matches, o)
		}
		exact = exact || o == p.entry.Text
	}
	p.spacer.Layout = fixedHeight(float32(min(max(len(p.matches), 1), pickerRows)) * rowHeight())
	p.list.Refresh()
	if typed {
		if q == "" || exact || len(p.matches) == 0 {
			p.listBox.Hide()
		} else {
			p.listBox.Show()
		}
	}
	p.listBox.Refresh()
}

// submit chooses the typed text (resolve).
func (p *armPicker) submit() { p.setChosen(p.resolve()) }

// resolve is what the typed text selects: a label as typed, else the first label containing
// it, else the text itself (run ids).
func (p *armPicker) resolve() string {
	t := strings.TrimSpace(p.entry.Text)
	if t == "" || looksLikeRunIDs(t) || slices.Contains(p.options, t) {
		return t
	}
	q := strings.ToLower(t)
	for _, o := range p.options {
		if strings.Contains(strings.ToLower(o), q) {
			return o
		}
	}
	return t
}

// commit takes what the field says as chosen, without reporting it: the other field was
// just chosen, and the comparison is of what both fields say.
func (p *armPicker) commit() {
	p.chosen = p.resolve()
	if p.entry.Text != p.chosen {
		p.entry.SetText(p.chosen)
	}
	p.listBox.Hide()
	p.markPending()
}

// clearChoice empties the field and its choice (another library is open).
func (p *armPicker) clearChoice() {
	p.chosen = ""
	p.entry.SetText("")
	p.listBox.Hide()
	p.markPending()
}

// markPending shows the "not compared yet" line while the field differs from its choice.
func (p *armPicker) markPending() {
	if strings.TrimSpace(p.entry.Text) != p.chosen {
		p.pending.Show()
	} else {
		p.pending.Hide()
	}
}

// looksLikeRunIDs is true for a run-id selector such as "12,13" or "12-15".
func looksLikeRunIDs(s string) bool {
	return strings.Trim(s, "0123456789,- ") == ""
}

// setChosen shows sel in the field and reports it.
func (p *armPicker) setChosen(sel string) {
	p.chosen = sel
	if p.entry.Text != sel {
		p.entry.SetText(sel)
	}
	p.listBox.Hide()
	p.markPending()
	if p.OnChosen != nil && sel != "" {
		p.OnChosen(sel)
	}
}

// rowHeight is the height of one row of a list of labels.
func rowHeight() float32 {
	return widget.NewLabel("Xy").MinSize().Height + theme.SeparatorThicknessSize()
}

// fixedHeight lays out nothing but reports a minimum height, to size a list that would
// otherwise collapse to one row.
type fixedHeight float32

func (h fixedHeight) Layout([]fyne.CanvasObject, fyne.Size) {}
func (h fixedHeight) MinSize([]fyne.CanvasObject) fyne.Size {
	return fyne.NewSize(0, float32(h))
}
