package gui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/lang"
)

// TestHistoryKeepsTheChosenMetricInChinese: in a Chinese locale the metric list was filled
// with untranslated titles once a series loaded, so the metric chosen (translated) was no
// longer among them and the view fell back to drawing TTFT under a TPOT choice. The locale is
// read when the process starts, so the test runs itself again in zh_CN (inChinese).
func TestHistoryKeepsTheChosenMetricInChinese(t *testing.T) {
	if !inChinese(t) {
		return
	}
	tpot := lang.L("TPOT (decode)")
	if tpot == "TPOT (decode)" {
		t.Fatal("the locale is not Chinese: TPOT (decode) is not translated")
	}
	u := historyApp(t) // TPOT chosen, the series loaded
	v := u.history
	if got := get(func() string { return drawnText(v.metric) }); got != tpot {
		t.Errorf("metric drawn after the load: %q, want %q", got, tpot)
	}
	if title := get(func() string { return drawnText(v.content) }); !strings.Contains(title, tpot+" (ms)") {
		t.Errorf("the chart drawn is not TPOT's: %s", title)
	}
	for _, o := range get(func() []string { return v.metric.Options }) {
		if o == "TTFT (prefill)" || o == "TPOT (decode)" {
			t.Errorf("an untranslated metric listed: %q in %q", o, v.metric.Options)
		}
	}
}
