package gui

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"benchlens/library"
)

// importSLOSweep imports the SLO sweep fixtures (testdata/slo-sweep: concurrency 1-32, five
// repeats, per-request data) as their bundle.yaml labels them.
func importSLOSweep(t *testing.T, u *App) {
	t.Helper()
	rep := library.Import(u.st, []string{"../testdata/slo-sweep"}, library.Options{})
	if len(rep.Errors) > 0 || len(rep.Added) != 40 {
		t.Fatalf("import: added %d, errors %v", len(rep.Added), rep.Errors)
	}
	ui(u.libraryChanged)
	eventually(t, "the sweep in the sidebar", func() bool { return u.library.count() == 40 })
}

// An SLO typed in the compare view's SLO card judges this comparison only: the card shows the
// change the verdict can rest on, each point's attainment and goodput per arm, the binding
// limit and the capacity, as `benchlens compare --slo` prints them; the capacity and Pareto
// charts appear in the chart column; the Stages card says how many runs a change needs; the
// SLO is stored with the saved verdict; another pair goes back to the library's SLO.
func TestCompareViewSLO(t *testing.T) {
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	importSLOSweep(t, u)
	ui(func() {
		u.showView(viewCompare)
		u.compare.setArm(true, "slo-baseline")
		u.compare.setArm(false, "slo-candidate")
	})
	shown(t, u, "slo-baseline", "slo-candidate")
	card := func() string { return drawnText(u.compare.slo.content) }
	eventually(t, "the SLO card without an SLO", func() bool { return strings.Contains(card(), "No SLO set") })
	ui(func() {
		for _, k := range []string{"slo_capacity", "slo_pareto"} {
			if u.compare.charts[k].Visible() {
				t.Errorf("no SLO: chart %s shown", k)
			}
		}
	})
	stages := get(func() string { return drawnText(u.compare.stages) })
	if !strings.Contains(stages, "How many runs: 5+5 runs detect ≥ 8.6 % on TPOT, ≥ 16 % on TTFT; for 2 % run 75 and 256 per arm") {
		t.Errorf("the Stages card lacks the runs-needed hint: %s", stages)
	}

	ui(func() { u.compare.slo.entry.SetText("ttft<=200, tpot<=30") })
	var text string
	eventually(t, "the SLO section", func() bool {
		text = card()
		return u.compare.record != nil && u.compare.record.SLO != nil && strings.Contains(text, "binds")
	})
	for _, want := range []string{
		"ttft<=200,tpot<=30: SLO attainment 33 → 60 % at c=16–32, p=0.0119",
		"c=16 62 % [58-64] 15.09 req/s 92 % [88-96] 33.37 req/s +30.0 pp (p=0.0117) [+26.0, +38.0] pp +121.2 % (p=0.00794)",
		"c=1 100 % [98-100] 4.757 req/s 100 % [98-100] 5.377 req/s ~ +0.0 pp (p=1) [−2.0, +2.0] pp +13.0 % (p=0.00794)",
		"Binding limit: TTFT binds: over TTFT 32 % → 19 %, over TPOT 15 % → 2 %, failed 1 % → 1 %",
		"Capacity under the SLO (attainment ≥ 90 %): concurrency 7.16 [6.4, 7.33] → 16.5 [13.6, 17.5]: +131 % [+98, +166]",
		"Pareto frontier (output tok/s per GPU against tok/s per user): baseline c=1–16; candidate c=1–16",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the SLO card lacks %q:\n%s", want, text)
		}
	}
	eventually(t, "the SLO charts", func() bool {
		return strings.Contains(chartSVG(t, u, "slo_capacity"), "SLO attainment against load") && chartSVG(t, u, "slo_pareto") != ""
	})
	ui(func() {
		capSVG := chartSVG(t, u, "slo_capacity")
		for _, want := range []string{"slo-baseline (capacity 7.16 [6.4, 7.33])", "slo-candidate (capacity 16.5 [13.6, 17.5])"} {
			if !strings.Contains(capSVG, want) {
				t.Errorf("the capacity chart lacks %q", want)
			}
		}
		if !strings.Contains(chartSVG(t, u, "slo_pareto"), "tok/s per user") {
			t.Error("the Pareto chart lacks its axis")
		}
	})
	// The sweep's SLO charts stay while one point's distributions are shown.
	ui(func() { u.compare.point.SetSelectedIndex(3) })
	eventually(t, "the third point's stages", func() bool {
		return u.compare.pointLabel() != "" && u.compare.charts["slo_capacity"].Visible() && u.compare.charts["slo_pareto"].Visible()
	})
	ui(func() { u.compare.point.SetSelectedIndex(0) })

	ui(func() { u.win.Resize(fyne.NewSize(1366, 768)) })
	ui(func() { u.compare.scroll.ScrollToOffset(fyne.NewPos(0, u.compare.slo.content.Position().Y)) })
	shot(t, u, "compare-slo")

	// Saved, the verdict keeps the comparison's SLO.
	id := get(func() int64 {
		id, err := u.compare.saveOnce()
		if err != nil {
			t.Fatal(err)
		}
		return id
	})
	if _, rec, err := library.SavedRecord(u.st, id); err != nil || rec.Settings.SLO != "ttft<=200,tpot<=30" || rec.SLO == nil {
		t.Errorf("saved #%d: settings slo %q, section %v, %v", id, rec.Settings.SLO, rec.SLO != nil, err)
	}

	// A bad SLO is said in the card and the comparison stays as it was.
	ui(func() { u.compare.slo.entry.SetText("ttft<200") })
	if p := get(func() string { return drawnText(u.compare.slo.problem) }); !strings.Contains(p, `"ttft<200" is not a limit`) {
		t.Errorf("problem %q", p)
	}
	if get(func() bool { return u.compare.record == nil || u.compare.record.SLO == nil }) {
		t.Error("a bad SLO dropped the comparison's section")
	}

	// Another pair starts from the library's SLO (none): the override was this comparison's.
	ui(func() { u.compare.setArm(false, "slo-baseline") }) // the same runs on both sides: refused
	ui(func() {
		u.compare.setArm(true, "slo-candidate")
	})
	shown(t, u, "slo-candidate", "slo-baseline")
	eventually(t, "the library's SLO again", func() bool {
		return u.compare.slo.entry.Text == "" && strings.Contains(card(), "No SLO set") && u.compare.record.Settings.SLO == ""
	})
}

// The Settings view's SLO and capacity target are the library's, used by every comparison:
// set there, the compare view judges the pair against them; a bad SLO is said, not stored.
func TestSettingsSLO(t *testing.T) {
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	importSLOSweep(t, u)
	ui(func() {
		u.compare.setArm(true, "slo-baseline")
		u.compare.setArm(false, "slo-candidate")
	})
	shown(t, u, "slo-baseline", "slo-candidate")
	ui(func() {
		u.settings.sloTarget.SetText("50")
		u.settings.slo.SetText("ttft<=200")
	})
	eventually(t, "the library's SLO in the compare view", func() bool {
		r := u.compare.record
		return r != nil && r.SLO != nil && r.SLO.Objective == "ttft<=200" && r.SLO.Target == 0.5
	})
	set, err := library.Settings(u.st)
	if err != nil || set.SLO != "ttft<=200" || set.SLOTarget != 0.5 {
		t.Errorf("stored settings slo %q target %v (%v)", set.SLO, set.SLOTarget, err)
	}
	if text := get(func() string { return drawnText(u.compare.slo.content) }); !strings.Contains(text, "Capacity under the SLO (attainment ≥ 50 %)") {
		t.Errorf("the SLO card: %s", text)
	}
	ui(func() { u.settings.slo.SetText("ttft<=-1") })
	if p := get(func() string { return u.settings.problem.Text }); !strings.Contains(p, "SLO: ") {
		t.Errorf("problem %q", p)
	}
	if set, _ := library.Settings(u.st); set.SLO != "ttft<=200" {
		t.Errorf("a bad SLO was stored: %q", set.SLO)
	}
	ui(func() { u.showView(viewSettings) })
	shot(t, u, "settings-slo")
}
