package gui

import (
	"image/color"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"benchlens/analysis/report"
)

// drawnText is a text painted and its colour.
type paint struct {
	text  string
	color color.Color
}

// painted is every text drawn under o with its colour. Call it under ui.
func painted(o fyne.CanvasObject) []paint {
	var out []paint
	for _, t := range texts(o) {
		out = append(out, paint{t.Text, t.Color})
	}
	return out
}

// squeeze drops white space: the drawn headline is in pieces, one per style and line.
func squeeze(s string) string { return strings.Join(strings.Fields(s), "") }

func themeColour(name fyne.ThemeColorName) color.Color {
	s := fyne.CurrentApp().Settings()
	return s.Theme().Color(name, s.ThemeVariant())
}

func sameColour(a, b color.Color) bool {
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}

// The compare view draws the headline report.HeadlineOf writes, with its numbers: on the real
// H100 pair (not established) the gains are green, never red, and the status is a badge of
// its own; on the demo sweep the point where TPOT got worse is red.
func TestHeadlineDrawnWithNumbersAndDirection(t *testing.T) {
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	importH100(t, u)
	compared := watchComparisons(u)
	ui(func() { u.compare.setArm(true, "fp16") })
	ui(func() { u.compare.setArm(false, "fp8") })
	compared(t, "fp16", "fp8")
	want := get(func() string { return report.HeadlineOf(*u.compare.record).Text(words()) })
	if !strings.Contains(want, "TTFT −23 %, TPOT −30 % at c=1; −16 % / −20 % at c=64") || !strings.Contains(want, "not attributable: model_name differs") {
		t.Fatalf("the H100 headline lacks its numbers or its reasons: %q", want)
	}
	text := get(func() string { return drawnText(u.compare.verdict.content) })
	if !strings.Contains(squeeze(text), squeeze(want)) || !strings.Contains(text, "gain not established") {
		t.Errorf("drawn headline\n%q\nwant the badge and\n%q", text, want)
	}
	green, red := themeColour(theme.ColorNameSuccess), themeColour(theme.ColorNameError)
	gains := 0
	for _, p := range get(func() []paint { return painted(u.compare.verdict.content) }) {
		if sameColour(p.color, red) {
			t.Errorf("%q is drawn red: a gain is never red", p.text)
		}
		if strings.Contains(p.text, "−") && strings.Contains(p.text, "%") {
			gains++
			if !sameColour(p.color, green) {
				t.Errorf("the gain %q is drawn %v, want green", p.text, p.color)
			}
		}
		if p.text == "gain not established" && sameColour(p.color, green) {
			t.Errorf("the badge is drawn in the colour of a gain")
		}
	}
	if gains < 4 {
		t.Errorf("%d gains drawn, want TTFT and TPOT at both points", gains)
	}
	shot(t, u, "headline-h100")
}

// On the demo sweep the headline says where the gain holds and where not, the worse TPOT at
// concurrency 64 in red.
func TestHeadlineDrawnSweep(t *testing.T) {
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	dropAndConfirm(t, u, "../demo/samples/sweep-baseline", "../demo/samples/sweep-candidate")
	eventually(t, "the import", func() bool { return !u.importer.busy && u.library.count() == 40 })
	compared := watchComparisons(u)
	ui(func() { u.compare.setArm(true, "sweep-baseline") })
	ui(func() { u.compare.setArm(false, "sweep-candidate") })
	compared(t, "sweep-baseline", "sweep-candidate")
	text := get(func() string { return drawnText(u.compare.verdict.content) })
	for _, w := range []string{"gain established", "established at c=1–16 (ITL −10 to −11 %)", "offset at c=64 (TPOT +2.5 %: overhead grew)", "p=0.00794, the floor for 5+5 runs"} {
		if !strings.Contains(squeeze(text), squeeze(w)) {
			t.Errorf("the sweep's headline lacks %q: %q", w, text)
		}
	}
	red := themeColour(theme.ColorNameError)
	worse := false
	for _, p := range get(func() []paint { return painted(u.compare.verdict.content) }) {
		if strings.Contains(p.text, "+2.5 %") {
			worse = sameColour(p.color, red)
		}
	}
	if !worse {
		t.Errorf("the worse TPOT at c=64 is not drawn red")
	}
}

// The analyst's status stands first in the app: after an override in the Verdict view the
// Compare view's badge is the analyst's with the proposal beside it, also when the same pair
// is compared again.
func TestCompareViewShowsAnalystStatus(t *testing.T) {
	u := newDemoApp(t)
	ui(func() { u.compare.setArm(true, "baseline") })
	ui(func() { u.compare.setArm(false, "established") })
	shown(t, u, "baseline", "established")
	ui(func() { test.Tap(u.compare.save) })
	ui(func() { u.verdict.override.SetSelected("zero gain") })
	ui(func() { u.verdict.reason.SetText("inside the noise") })
	ui(func() { u.verdict.flush() })
	want := "zero gain analyst's override of the proposed “gain established”: inside the noise"
	if text := get(func() string { return drawnText(u.compare.verdict.content) }); !strings.HasPrefix(text, want) {
		t.Errorf("the Compare view after the override draws %q", text)
	}
	ui(func() { u.compare.setArm(false, "offset") })
	shown(t, u, "baseline", "offset")
	ui(func() { u.compare.setArm(false, "established") })
	shown(t, u, "baseline", "established")
	if text := get(func() string { return drawnText(u.compare.verdict.content) }); !strings.HasPrefix(text, want) {
		t.Errorf("the Compare view of the saved pair compared again draws %q", text)
	}
}
