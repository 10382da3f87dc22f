package chart

import (
	"image"
	"os"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/plot"
)

// A legend entry in Chinese draws its glyphs: "设备 0" drew as "0" in Liberation Sans, which
// has no Chinese. With the system's CJK font found by the chart itself, the legend of "设备 0"
// inks clearly more than the legend of "0" alone (two Han characters more).
func TestLegendDrawsChinese(t *testing.T) {
	if !haveCJKFont() {
		t.Skip("no font with Chinese glyphs on this system (make deps installs fonts-wqy-microhei)")
	}
	ink := func(label string) int {
		p := newPlot("", "", "")
		lg := legend{p: p}
		lg.add(label, lineThumb{lineStyle(Palette[0])})
		lg.done()
		img, err := Image(p, 400, 300)
		if err != nil {
			t.Fatal(err)
		}
		return dark(img)
	}
	zero, device := ink("0"), ink("设备 0")
	if device < zero+40 {
		t.Errorf("the legend \"设备 0\" inks %d px, \"0\" alone %d: the Chinese glyphs are not drawn", device, zero)
	}
}

// Tick labels and axis titles in Chinese take the wide font too.
func TestChineseTicksTakeTheWideFont(t *testing.T) {
	if !haveCJKFont() {
		t.Skip("no font with Chinese glyphs on this system")
	}
	p := newPlot("", "时间", "")
	p.X.Min, p.X.Max = 0, 1
	p.X.Tick.Marker = constTicks{"设备 0"}
	q := prepared(p)
	if q.X.Tick.Label.Font.Typeface != "benchlens-wide" || q.X.Label.TextStyle.Font.Typeface != "benchlens-wide" {
		t.Errorf("Chinese ticks in %q, axis title in %q", q.X.Tick.Label.Font.Typeface, q.X.Label.TextStyle.Font.Typeface)
	}
	if q.Y.Tick.Label.Font.Typeface == "benchlens-wide" {
		t.Error("numeric ticks took the wide font")
	}
}

// The candidates start with what fontconfig knows and end with this system's known paths.
func TestWideFontCandidates(t *testing.T) {
	for _, goos := range []string{"linux", "windows", "darwin"} {
		got := wideFontCandidates(goos)
		if len(got) < len(wideFontPaths[goos]) {
			t.Errorf("%s: %v", goos, got)
		}
	}
	t.Setenv("WINDIR", `D:\Win`)
	if got := wideFontCandidates("windows"); got[len(got)-4] != `D:\Win\Fonts\msyh.ttc` {
		t.Errorf("windows: %v", got)
	}
	if _, err := os.Stat("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"); err == nil {
		if got := wideFontCandidates("linux"); !slices.Contains(got, "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc") {
			t.Errorf("linux: %v", got)
		}
	}
}

// haveCJKFont reports whether this system has a font the charts can find, without loading it:
// the charts must find it themselves.
func haveCJKFont() bool {
	for _, p := range wideFontCandidates(runtime.GOOS) {
		if _, err := os.Stat(p); err == nil {
			return true
		}
	}
	return false
}

// dark counts the pixels darker than mid-grey.
func dark(img image.Image) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if (r+g+bl)/3 < 0x8000 {
				n++
			}
		}
	}
	return n
}

type constTicks []string

func (c constTicks) Ticks(min, max float64) []plot.Tick {
	out := make([]plot.Tick, len(c))
	for i, l := range c {
		out[i] = plot.Tick{Value: min, Label: l}
	}
	return out
}
