package gui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"benchlens/model"
)

// The Help menu's guides: what each cause of a verdict means, with the METHOD.md rule it
// comes from, and the keyboard shortcuts.

// causeGuide is each cause code's rule and meaning, in model.CauseCodes' order.
var causeGuide = map[model.CauseCode][2]string{
	model.EnvironmentDiffers:      {"1", "A software, hardware or node field differs between the arms and the declared change does not cover it."},
	model.LoadDrift:               {"1", "The workload differs: model, lengths, rate, concurrency or the request set."},
	model.ConditionsUnverified:    {"1", "A required field is not recorded on one side or both."},
	model.MeasurementUncontrolled: {"2", "Fewer repeats than the minimum, or no warm-up discarded."},
	model.TargetNotHit:            {"3", "The candidate asked for a backend and the server resolved another (a fallback)."},
	model.PathUnchanged:           {"3", "Faster, but the resolved backend did not change: the gain comes from elsewhere."},
	model.PathUnverified:          {"3", "No server log says which backend ran."},
	model.MixedPaths:              {"3", "Runs of one arm resolved to different backends."},
	model.PathContradicted:        {"11", "The log resolved one backend, the kernels in the traces show another."},
	model.OffsetByOverhead:        {"7", "The targeted ops got faster, but added copies, launches or syncs take the gain back."},
	model.BottleneckNotInStage:    {"8", "The stage that improved is not where the time goes."},
	model.LoadDependent:           {"9", "The verdict holds at some load points only."},
}

// shortcuts are the keyboard shortcuts (Cmd in place of Ctrl on macOS).
var shortcuts = [][2]string{
	{"Ctrl+O", "Import files…"}, {"Ctrl+Shift+O", "Import folder…"}, {"Ctrl+E", "Export…"},
	{"Ctrl+1 … Ctrl+4", "Switch views"}, {"Ctrl+B", "Show or hide the library"},
	{"Escape", "Close the dialog on top"}, {"Enter", "Compare the arm typed; in the picker, open the path typed"},
	{"Shift+wheel", "Scroll a wide table sideways"},
	{"Click a chart", "Open it large (right button: save or copy it)"}, {"Click a legend entry", "Hide or show its series"},
	{"Wheel, + / −, 0", "Zoom the chart opened large, reset it"}, {"Drag", "Pan the chart opened large"},
}

// helpMenu is About, the causes' guide and the shortcuts.
func (u *App) helpMenu() *fyne.Menu {
	return fyne.NewMenu(lang.L("Help"),
		fyne.NewMenuItem(lang.L("About benchlens"), u.showAbout),
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem(lang.L("What the causes mean (METHOD.md)"), u.showCauseGuide),
		fyne.NewMenuItem(lang.L("Keyboard shortcuts"), u.showShortcuts))
}

// showCauseGuide lists every cause a verdict can name: its words, its code, the METHOD.md
// rule it comes from and what it means.
func (u *App) showCauseGuide() {
	b := newTableBuilder(3)
	b.row(bold(lang.L("cause")), bold(lang.L("rule")), bold(lang.L("what it means")))
	for _, code := range model.CauseCodes {
		g := causeGuide[code]
		meaning := widget.NewLabel(lang.L(g[1]))
		meaning.Wrapping = fyne.TextWrapWord
		b.row(widget.NewLabel(codeText(code)), widget.NewLabel(g[0]), container.New(&fixedWidth{w: 420}, meaning))
	}
	intro := widget.NewLabel(lang.L("A verdict is established only when no cause stands against it. The rules are METHOD.md's; their defaults are in Settings."))
	intro.Wrapping = fyne.TextWrapWord
	page := container.NewVScroll(widget.NewLabel(""))
	page.Content = container.New(narrow{}, container.NewVBox(intro, b.build(page)))
	d := dialog.NewCustom(lang.L("What the causes mean (METHOD.md)"), lang.L("Close"), page, u.win)
	d.Resize(fyne.NewSize(min(u.win.Canvas().Size().Width*0.9, 900), u.win.Canvas().Size().Height*0.8))
	u.showDialog(d)
}

// showShortcuts lists the keyboard shortcuts.
func (u *App) showShortcuts() {
	b := newTableBuilder(2)
	for _, s := range shortcuts {
		b.row(bold(lang.L(s[0])), widget.NewLabel(lang.L(s[1]))) // keys read as they are, words translated
	}
	u.showDialog(dialog.NewCustom(lang.L("Keyboard shortcuts"), lang.L("Close"), b.build(nil), u.win))
}

// fixedWidth gives its content a width of w and the height it needs there.
type fixedWidth struct{ w float32 }

func (f *fixedWidth) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.Position{})
		o.Resize(size)
	}
}

func (f *fixedWidth) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var h float32
	for _, o := range objs {
		o.Resize(fyne.NewSize(f.w, o.MinSize().Height))
		h = max(h, o.MinSize().Height)
	}
	return fyne.NewSize(f.w, h)
}
