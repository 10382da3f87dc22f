package gui

import (
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"benchlens/analysis/report"
	"benchlens/model"
)

// headlineView draws a comparison's headline (report.HeadlineOf, the one text every export
// shows): the status as a badge of its own, then the sentence with each change coloured by
// its direction: green when better, red when worse, whatever its sign. A 30 % gain of a
// comparison that does not count is green, and the badge says it does not count.
type headlineView struct {
	content  *fyne.Container
	badge    *canvas.Text
	fill     *canvas.Rectangle
	badgeBox *fyne.Container
	text     *widget.RichText
	// Importance is the prompt's (danger for an error); a headline's is medium.
	Importance widget.Importance
}

func newHeadlineView(prompt string) *headlineView {
	h := &headlineView{badge: canvas.NewText("", color.White), fill: canvas.NewRectangle(color.Transparent)}
	h.badge.TextStyle = fyne.TextStyle{Bold: true}
	h.fill.CornerRadius = 4
	h.badgeBox = container.NewStack(h.fill, container.NewPadded(h.badge))
	h.badgeBox.Hide()
	h.text = widget.NewRichText(&widget.TextSegment{Text: prompt, Style: headlineStyle(report.Plain)})
	h.text.Wrapping = fyne.TextWrapWord
	badge := container.NewVBox(h.badgeBox)
	h.content = container.New(layout.NewBorderLayout(nil, nil, badge, nil), badge, h.text) // the badge read first
	return h
}

// words is the language the record's words are shown in: the app's.
func words() report.Lang { return report.LangOf(string(lang.SystemLocale())) }

// badgeColours tell the statuses apart without the colours of direction (green, red).
var badgeColours = map[model.Status]color.NRGBA{
	model.Established:    {R: 0x1f, G: 0x5f, B: 0xb4, A: 0xff},
	model.Offset:         {R: 0xa8, G: 0x6a, B: 0x00, A: 0xff},
	model.Zero:           {R: 0x6b, G: 0x6b, B: 0x6b, A: 0xff},
	model.NotEstablished: {R: 0x4a, G: 0x4a, B: 0x5a, A: 0xff},
}

// show draws a status (the analyst's when overridden) and the spans after it.
func (h *headlineView) show(status model.Status, spans []report.Span) {
	h.Importance = widget.MediumImportance
	h.badge.Text = report.StatusWords(status).In(words())
	h.fill.FillColor = badgeColours[status]
	h.badgeBox.Show()
	h.badge.Refresh()
	h.fill.Refresh()
	segs := make([]widget.RichTextSegment, 0, len(spans))
	for _, s := range spans {
		segs = append(segs, &widget.TextSegment{Text: s.In(words()), Style: headlineStyle(s.Tone)})
	}
	h.text.Segments = segs
	h.text.Refresh()
}

// prompt shows a line in place of a headline (nothing compared yet, or why not), an error
// in the error colour.
func (h *headlineView) prompt(s string, imp widget.Importance) {
	h.Importance = imp
	h.badgeBox.Hide()
	st := headlineStyle(report.Plain)
	if imp == widget.DangerImportance {
		st.ColorName = theme.ColorNameError
	}
	h.text.Segments = []widget.RichTextSegment{&widget.TextSegment{Text: s, Style: st}}
	h.text.Refresh()
}

// Text is what the headline says: the badge's words and the sentence.
func (h *headlineView) Text() string {
	var b strings.Builder
	if h.badgeBox.Visible() {
		b.WriteString(h.badge.Text + ": ")
	}
	for _, s := range h.text.Segments {
		b.WriteString(s.(*widget.TextSegment).Text)
	}
	return b.String()
}

// headlineStyle is a span's look: a change bold in its direction's colour.
func headlineStyle(t report.Tone) widget.RichTextStyle {
	st := widget.RichTextStyle{Inline: true, SizeName: theme.SizeNameSubHeadingText, TextStyle: fyne.TextStyle{Bold: true}}
	switch t {
	case report.Better:
		st.ColorName = theme.ColorNameSuccess
	case report.Worse:
		st.ColorName = theme.ColorNameError
	default:
		st.TextStyle = fyne.TextStyle{}
	}
	return st
}
