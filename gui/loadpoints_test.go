package gui

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// A sweep pair shows its load points panel, one row per point with its verdict, and its load
// curves; arms of one point each hide both (no blank charts left in the grid).
func TestComparePanelShowsLoadPoints(t *testing.T) {
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	ui(func() {
		u.importer.onDropped(fyne.Position{}, dropped("../demo/samples/sweep-baseline", "../demo/samples/sweep-candidate", "../demo/samples/baseline", "../demo/samples/established"))
	})
	eventually(t, "the import", func() bool { return !u.importer.busy && u.library.count() == 50 })
	ui(func() {
		u.compare.setArm(true, "sweep-baseline")
		u.compare.setArm(false, "sweep-candidate")
	})
	p := u.compare.points
	// showing is true while the compare view shows the arms "base/cand"; call it under the UI lock.
	showing := func(arms string) bool {
		r := u.compare.record
		return r != nil && r.Arms.Baseline.Label+"/"+r.Arms.Candidate.Label == arms
	}
	var holds string
	var lines []string
	eventually(t, "the sweep comparison", func() bool {
		holds, lines = p.holds.Text, nil
		if len(p.table.Objects) == 1 {
			for _, o := range p.table.Objects[0].(*fyne.Container).Objects {
				lines = append(lines, o.(*widget.Label).Text)
			}
		}
		return showing("sweep-baseline/sweep-candidate") && holds != "" && len(lines) == 4
	})
	if !strings.Contains(holds, "established at concurrency 1-16; offset at 64") {
		t.Fatalf("holds %q", holds)
	}
	if !get(u.compare.charts["load_deltas"].Visible) {
		t.Error("the sweep's per-point deltas chart is hidden")
	}
	text := strings.Join(lines, "\n")
	for _, want := range []string{"concurrency 1 · 1024→64 tok · random (5+5): TTFT ~ -3.4%, TPOT -9.8%", "concurrency 64 · 1024→64 tok · random (5+5): ", "→ offset (offset_by_overhead)"} {
		if !strings.Contains(text, want) {
			t.Errorf("table lacks %q: %s", want, text)
		}
	}
	ui(func() { u.showView(viewCompare) })
	shot(t, u, "compare-sweep")

	ui(func() {
		u.compare.setArm(true, "baseline")
		u.compare.setArm(false, "established")
	})
	eventually(t, "the one-point comparison", func() bool {
		return showing("baseline/established") && !p.content.Visible()
	})
	ui(func() {
		for k, c := range u.compare.charts {
			if load := strings.HasPrefix(k, "load_"); c.Visible() == load {
				t.Errorf("one point per arm: chart %s shown %v", k, c.Visible())
			}
		}
	})
}
