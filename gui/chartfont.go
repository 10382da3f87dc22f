package gui

import (
	"log"
	"sync"

	"fyne.io/fyne/v2/lang"

	"benchlens/analysis/chart"
)

var (
	chartFontOnce   sync.Once
	chartTranslated bool
)

// chartsTranslated reports whether charts show translated titles and axes. Charts draw text
// with Liberation Sans, which has no Chinese: a translation in such a script needs a system
// font that has it (none is bundled; chart.FindWideFont looks for one). Without one, charts
// stay English, said once in the log.
func chartsTranslated() bool {
	chartFontOnce.Do(func() {
		sample := lang.L("Time to first token (prefill)")
		if !wideScript(sample) {
			chartTranslated = true
			return
		}
		if chart.FindWideFont() != "" {
			chartTranslated = true
			return
		}
		log.Printf("charts: no font with Chinese glyphs found (install fonts-noto-cjk or fonts-wqy-microhei); chart titles and axes stay English")
	})
	return chartTranslated
}

// wideScript reports whether s has CJK characters (beyond what Liberation Sans covers).
func wideScript(s string) bool {
	for _, r := range s {
		if r >= 0x2E80 {
			return true
		}
	}
	return false
}

// chartTr translates the charts' fixed titles and axes (see chart.Options.Tr), when charts can
// show the translation.
func (u *App) chartTr(s string) string {
	if !chartsTranslated() {
		return s
	}
	return lang.L(s)
}
