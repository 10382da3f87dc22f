package chart

import (
	"os"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// drawnAt is p as Image draws it at w×h: fitted to the size.
func drawnAt(p *plot.Plot, w, h int) *plot.Plot {
	W, H, _, _ := size(w, h)
	return layout(p, canvasOf(draw.Canvas{Canvas: &recorder.Canvas{}, Rectangle: vg.Rectangle{Max: vg.Point{X: W, Y: H}}})).q
}

// Tick labels are drawn without Liberation's "11" kerning pair (it makes "11" read "ll"),
// and the plot given to be drawn keeps its own labels.
func TestTickLabelsUnkerned(t *testing.T) {
	p := newPlot("t", "x", "y")
	p.X.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 11, Label: "11.00"}, {Value: 111, Label: "111"}})
	p.X.Min, p.X.Max = 0, 200
	for _, tk := range drawnAt(p, 800, 500).X.Tick.Marker.Ticks(0, 200) {
		if strings.Contains(tk.Label, "11") || strings.ReplaceAll(tk.Label, "\u200b", "") != map[float64]string{11: "11.00", 111: "111"}[tk.Value] {
			t.Errorf("drawn tick label %q", tk.Label)
		}
	}
	if got := p.X.Tick.Marker.Ticks(0, 200)[0].Label; got != "11.00" {
		t.Errorf("the plot's own label became %q", got)
	}
}

// A log axis labels 1, 2 and 5 of each decade, every digit when that leaves too few, and evenly
// spaced numbers over less than a digit's step (the TPOT of one load point: 12.1-18.5 ms).
func TestLogTicks(t *testing.T) {
	for _, tc := range []struct {
		min, max float64
		want     string
	}{
		{20, 90, "20 30 40 50 60 70 80 90"},
		{0.25, 600, "0.5 1 2 5 10 20 50 100 200 500"},
		{12.1, 18.5, "14 16 18"},
		{10.5, 19.5, "12.5 15.0 17.5"},
		{7.2, 7.6, "7.2 7.3 7.4 7.5 7.6"},
	} {
		var got []string
		for _, tk := range (logTicks{}).Ticks(tc.min, tc.max) {
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%v..%v: %v, want %s", tc.min, tc.max, got, tc.want)
		}
	}
}

// A font without Latin letters is refused for labels that mix scripts.
func TestUseWideFontNeedsLatin(t *testing.T) {
	const droid = "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"
	if _, err := os.Stat(droid); err != nil {
		t.Skip("no Droid Sans Fallback here")
	}
	if err := UseWideFont(droid); err == nil || !strings.Contains(err.Error(), "no Latin letters") {
		t.Errorf("UseWideFont(%s) = %v", droid, err)
	}
	if err := UseWideFont("/nonexistent.ttf"); err == nil {
		t.Error("a missing font file was accepted")
	}
}

// Debian's WenQuanYi fonts (unaligned tables) load, and a Chinese title then renders.
func TestUseWideFontWenQuanYi(t *testing.T) {
	const wqy = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"
	if _, err := os.Stat(wqy); err != nil {
		t.Skip("fonts-wqy-microhei not installed")
	}
	wideMu.Lock()
	was, wasPath := wide, widePath
	wideMu.Unlock()
	defer func() { wideMu.Lock(); wide, widePath = was, wasPath; wideMu.Unlock() }()
	if err := UseWideFont(wqy); err != nil {
		t.Fatal(err)
	}
	p := newPlot("首 token 时延（prefill）", "首 token 时延（ms）", "请求占比")
	if q := prepared(p); q.Title.TextStyle.Font.Typeface != "benchlens-wide" || q.X.Label.TextStyle.Font.Typeface != "benchlens-wide" {
		t.Errorf("the Chinese title is drawn in %v", q.Title.TextStyle.Font)
	}
	if p.Title.TextStyle.Font.Typeface == "benchlens-wide" {
		t.Error("drawing changed the plot's own font")
	}
	if _, err := PNG(p, 400, 300); err != nil {
		t.Fatal(err)
	}
}

// A count axis (runs in series order) is labelled at whole numbers only.
func TestWholeTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   string
	}{
		{0.8, 5.2, "1 2 3 4 5"},
		{0, 30, "0 5 10 15 20 25 30"},
		{0.5, 400, "50 100 150 200 250 300 350 400"},
	} {
		var got []string
		for _, tk := range (wholeTicks{8}).Ticks(tc.lo, tc.hi) {
			got = append(got, tk.Label)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%v..%v: %v, want %s", tc.lo, tc.hi, got, tc.want)
		}
	}
}
