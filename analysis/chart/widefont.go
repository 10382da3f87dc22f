package chart

import (
	"fmt"
	"os"
	"sync"
	"unicode"

	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
)

// wide is the typeface titles and axis labels use when they hold characters Liberation Sans
// lacks (Chinese, Japanese, Korean); the zero Font until UseWideFont loads one.
var (
	wideMu sync.Mutex
	wide   font.Font
)

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
	wide = fnt
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

// widenFonts gives the title and axis labels of p the wide font where they need it.
func widenFonts(p *plot.Plot) {
	wideMu.Lock()
	w := wide
	wideMu.Unlock()
	if w.Typeface == "" {
		return
	}
	for _, t := range []struct {
		text string
		font *font.Font
	}{
		{p.Title.Text, &p.Title.TextStyle.Font},
		{p.X.Label.Text, &p.X.Label.TextStyle.Font},
		{p.Y.Label.Text, &p.Y.Label.TextStyle.Font},
	} {
		if needsWide(t.text) {
			size := t.font.Size
			*t.font = w
			t.font.Size = size
		}
	}
}
