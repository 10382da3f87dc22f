package gui

import (
	"log"
	"os/exec"
	"strings"
	"sync"

	"fyne.io/fyne/v2/lang"

	"benchlens/analysis/chart"
)

// wideFontPaths are where Debian and Ubuntu put fonts with Chinese (and Japanese, Korean)
// glyphs, tried after fontconfig's answer.
var wideFontPaths = []string{
	"/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
	"/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
	"/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
	"/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
	"/usr/share/fonts/truetype/arphic/uming.ttc",
}

var (
	chartFontOnce   sync.Once
	chartTranslated bool
)

// chartsTranslated reports whether charts show translated titles and axes. Charts draw text
// with Liberation Sans, which has no Chinese: a translation in such a script needs a system
// font that has it (none is bundled). Without one, charts stay English, said once in the log.
func chartsTranslated() bool {
	chartFontOnce.Do(func() {
		sample := lang.L("Time to first token (prefill)")
		if !wideScript(sample) {
			chartTranslated = true
			return
		}
		for _, path := range wideFontCandidates() {
			if chart.UseWideFont(path) == nil {
				chartTranslated = true
				return
			}
		}
		log.Printf("charts: no font with Chinese glyphs found (install fonts-noto-cjk or fonts-wqy-microhei); chart titles and axes stay English")
	})
	return chartTranslated
}

// wideFontCandidates are fontconfig's Chinese fonts, then the known paths.
func wideFontCandidates() []string {
	var out []string
	if b, err := exec.Command("fc-list", ":lang=zh", "file").Output(); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if f := strings.TrimSuffix(strings.TrimSpace(l), ":"); f != "" {
				out = append(out, f)
			}
		}
	}
	return append(out, wideFontPaths...)
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
