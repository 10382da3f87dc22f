package gui

import (
	"strings"
	"testing"

	"benchlens/analysis/history"
	"benchlens/library"
)

// The History view draws the metric chosen as soon as that metric is searched: the TPOT step
// is listed while the other metrics are still searched, another metric chosen meanwhile says
// it is being searched (not that it has no step), and once every metric is searched it lists
// its own step.
func TestHistoryDrawsTheChosenMetricFirst(t *testing.T) {
	u := historyApp(t) // TPOT chosen
	v := u.history
	first := get(v.firstMetric)
	if first.Key != "tpot" {
		t.Fatalf("with TPOT chosen a load searches %s first", first.Key)
	}
	rep, _, err := library.ReadHistoryOf(u.st, "nightly-h100", history.DefaultSettings, first)
	if err != nil {
		t.Fatal(err)
	}
	ui(func() {
		v.gen++ // as a load's first step shows it
		v.only, v.explained = first.Key, false
		v.show(rep)
	})
	drawn := get(func() string { return drawnText(v.content) })
	for _, want := range []string{"TPOT +10.4 %", "searching the other metrics for change points"} {
		if !strings.Contains(drawn, want) {
			t.Errorf("TPOT searched first: %q not drawn: %s", want, drawn)
		}
	}
	ui(func() { v.metric.SetSelectedIndex(0) }) // TTFT (prefill)
	if steps := get(func() string { return drawnText(v.steps) }); steps != "Searching this metric for change points…" {
		t.Errorf("TTFT not yet searched, its steps: %s", steps)
	}
	ui(v.load)
	eventually(t, "every metric searched", func() bool { return v.explained })
	if steps := get(func() string { return drawnText(v.steps) }); !strings.Contains(steps, "TTFT −") || strings.Contains(steps, "Searching") {
		t.Errorf("TTFT searched, its steps: %s", steps)
	}
}
