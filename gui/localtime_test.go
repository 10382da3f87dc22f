package gui

import (
	"strings"
	"testing"
	"time"
)

// The Run summary draws a run's date to the minute (a file's date without a zone stays
// without one), and the verdict's last edit reads in the analyst's zone, named.
func TestDatesDrawnInLocalTime(t *testing.T) {
	was := time.Local
	time.Local = time.FixedZone("CET", 3600)
	defer func() { time.Local = was }()
	u := newDemoApp(t)
	ui(func() { u.showView(viewRun); u.run.show(1) })
	eventually(t, "run 1", func() bool { return u.run.current == 1 && len(u.run.summary.Objects) > 0 })
	if text := get(func() string { return drawnText(u.run.summary) }); !strings.Contains(text, "2026-01-12 09:41") || strings.Contains(text, "2026-01-12T09:41:48") {
		t.Errorf("the run's date is not drawn to the minute:\n%s", text)
	}
	openSavedComparison(t, u)
	ui(func() { u.verdict.note.SetText("checked") })
	ui(func() { u.verdict.flush() })
	eventually(t, "the last edit's line", func() bool { return strings.Contains(u.verdict.byline.Text, "CET") })
	if text := get(func() string { return drawnText(u.verdict.byline) }); !strings.Contains(text, time.Now().In(time.Local).Format("2006-01-02")) || !strings.HasSuffix(text, " CET") {
		t.Errorf("the last edit reads %q, want the local date and zone", text)
	}
}
