package chart

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
)

// wide is the typeface titles, axis labels, tick labels and legends use when they hold
// characters Liberation Sans lacks (Chinese, Japanese, Korean); the zero Font until
// UseWideFont loads one, or a chart needs one and FindWideFont finds it on the system.
var (
	wideMu sync.Mutex
	wide   font.Font
)

// wideFontPaths are where the systems keep fonts with Chinese glyphs and Latin letters, tried
// after fontconfig's answer: Debian and Ubuntu (fonts-noto-cjk, fonts-wqy-microhei), Windows
// (Microsoft YaHei, SimHei) and macOS (PingFang, Hiragino).
var wideFontPaths = map[string][]string{
	"linux": {
		"/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
		"/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
		"/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
		"/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
		"/usr/share/fonts/wqy-microhei/wqy-microhei.ttc",
		"/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
		"/usr/share/fonts/truetype/arphic/uming.ttc",
	},
	"windows": {`%WINDIR%\Fonts\msyh.ttc`, `%WINDIR%\Fonts\msyh.ttf`, `%WINDIR%\Fonts\simhei.ttf`, `%WINDIR%\Fonts\simsun.ttc`},
	"darwin": {
		"/System/Library/Fonts/PingFang.ttc",
		"/System/Library/Fonts/Hiragino Sans GB.ttc",
		"/System/Library/Fonts/STHeiti Light.ttc",
		"/Library/Fonts/Arial Unicode.ttf",
	},
}

// FindWideFont loads the first system font with Chinese glyphs and Latin letters that it
// finds (fontconfig's, then wideFontPaths of this system), once, and returns its file; ""
// when there is none, and charts then draw what Liberation Sans has. A chart needing one
// calls it itself: the app, the command line and the tests draw Chinese alike.
func FindWideFont() string {
	findMu.Lock()
	defer findMu.Unlock()
	wideMu.Lock()
	path, done := widePath, searched
	wideMu.Unlock()
	if path != "" || done {
		return path
	}
	for _, path := range wideFontCandidates(runtime.GOOS) {
		if UseWideFont(path) == nil {
			return path
		}
	}
	wideMu.Lock()
	searched = true
	wideMu.Unlock()
	return ""
}

// widePath is the file the wide font was loaded from; searched says FindWideFont found none.
var (
	widePath string
	searched bool
	findMu   sync.Mutex // one search at a time
)

// wideFontCandidates are fontconfig's Chinese fonts (where fc-list is), then the known paths.
func wideFontCandidates(goos string) []string {
	var out []string
	if b, err := exec.Command("fc-list", ":lang=zh", "file").Output(); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if f := strings.TrimSuffix(strings.TrimSpace(l), ":"); f != "" {
				out = append(out, f)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return preferred(out[i]) && !preferred(out[j]) })
	for _, p := range wideFontPaths[goos] {
		out = append(out, strings.ReplaceAll(p, "%WINDIR%", winDir()))
	}
	return out
}

// preferred are the sans-serif faces among fontconfig's answers (a serif Ming face or a
// CJK-only fallback reads worse in a chart).
func preferred(path string) bool {
	l := strings.ToLower(path)
	return strings.Contains(l, "sanscjk") || strings.Contains(l, "microhei") || strings.Contains(l, "msyh")
}

// winDir is Windows' folder (%WINDIR%).
func winDir() string {
	if v := os.Getenv("WINDIR"); v != "" {
		return v
	}
	return `C:\Windows`
}

// UseWideFont loads a TrueType/OpenType font file (or the first font of a collection, .ttc)
// for titles and axis labels in scripts Liberation Sans lacks. Charts are Fyne-free and carry
// no such font themselves: the app passes a system font (see fc-match).
func UseWideFont(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if data, err = realigned(data); err != nil {
		return fmt.Errorf("chart: %s: %w", path, err)
	}
	f, err := opentype.Parse(data)
	if err != nil {
		return fmt.Errorf("chart: %s: %w", path, err)
	}
	// A label mixes scripts ("首 token 时延（ms）") and gonum/plot draws it in one font: a
	// CJK-only fallback font (Droid Sans Fallback) would drop the Latin letters.
	var buf sfnt.Buffer
	for _, r := range "aAzZ09()%" {
		if i, err := f.GlyphIndex(&buf, r); err != nil || i == 0 {
			return fmt.Errorf("chart: %s has no Latin letters (%q)", path, r)
		}
	}
	fnt := font.Font{Typeface: "benchlens-wide"}
	font.DefaultCache.Add(font.Collection{{Font: fnt, Face: f}})
	wideMu.Lock()
	wide, widePath = fnt, path
	wideMu.Unlock()
	return nil
}

// needsWide reports whether s holds a letter outside the Latin, Greek and Cyrillic scripts
// Liberation Sans covers.
func needsWide(s string) bool {
	for _, r := range s {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) || r >= 0x3000 && r <= 0x303F || r >= 0xFF00 && r <= 0xFFEF {
			return true
		}
	}
	return false
}

// wideFor is the wide font when s needs it (finding one on the system the first time), else
// the zero Font.
func wideFor(s string) font.Font {
	if !needsWide(s) {
		return font.Font{}
	}
	FindWideFont()
	wideMu.Lock()
	defer wideMu.Unlock()
	return wide
}

// widen gives f the wide font, at its size, when s needs it and there is one.
func widen(f *font.Font, s string) {
	if w := wideFor(s); w.Typeface != "" {
		size := f.Size
		*f = w
		f.Size = size
	}
}

// widenFonts gives the title, axis labels and tick labels of p the wide font where they need
// it (an axis's ticks as one: they are drawn in one font).
func widenFonts(p *plot.Plot) {
	widen(&p.Title.TextStyle.Font, p.Title.Text)
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		widen(&ax.Label.TextStyle.Font, ax.Label.Text)
		if ax.Tick.Marker == nil {
			continue
		}
		widen(&ax.Tick.Label.Font, tickLabels(ax))
	}
}

// tickLabels are an axis's tick labels run together, read over its range as the plot will
// draw it (an empty range widened by one either side, as gonum/plot does); "" when its
// ticker cannot label that range.
func tickLabels(ax *plot.Axis) (labels string) {
	lo, hi := ax.Min, ax.Max
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) || math.IsNaN(lo) || math.IsNaN(hi) {
		return ""
	}
	if lo == hi {
		lo, hi = lo-1, hi+1
	}
	defer func() {
		if recover() != nil {
			labels = ""
		}
	}()
	var b strings.Builder
	for _, t := range ax.Tick.Marker.Ticks(min(lo, hi), max(lo, hi)) {
		b.WriteString(t.Label)
	}
	return b.String()
}
