package gui

import (
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"benchlens/analysis/compare"
	"benchlens/library"
	"benchlens/store"
)

// newTestApp builds the app on a fresh library, as a user would see it.
func newTestApp(t *testing.T, dbPath string) (*App, fyne.App) {
	t.Helper()
	a := test.NewTempApp(t)
	w := test.NewTempWindow(t, nil)
	st, err := store.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	// The library loads off the UI thread, and the test driver runs its result on that
	// thread: build under the UI lock, then wait until the runs are shown (not for the status
	// line: a comparison of the default arms may finish after the load and replace it).
	var u *App
	ui(func() {
		u = New(a, w, st, Options{})
		w.Resize(fyne.NewSize(1280, 820))
	})
	eventually(t, "the library to load", func() bool { return u.library.rows != nil })
	return u, a
}

// eventually waits for work started off the UI thread until cond holds. cond reads the UI's
// state under the UI lock (see ui), so it must not call ui itself. The deadline only bounds a
// failure: under -race on a machine shared by several test runs, comparing the real H100 pair
// request by request at both its points takes over 20 s, and at load average 20 over a minute.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for !get(cond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// shot writes the window to $BENCHLENS_SHOTS/name.png when set, to look at the views.
func shot(t *testing.T, u *App, name string) {
	dir := os.Getenv("BENCHLENS_SHOTS")
	if dir == "" {
		return
	}
	time.Sleep(400 * time.Millisecond) // let charts render
	f, err := os.Create(filepath.Join(dir, name+".png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	png.Encode(f, get(u.win.Canvas().Capture))
}

func dropped(paths ...string) []fyne.URI {
	var uris []fyne.URI
	for _, p := range paths {
		abs, _ := filepath.Abs(p)
		uris = append(uris, storage.NewFileURI(abs))
	}
	return uris
}

// The analyst's path through the app: drop bundles, see runs, pick two arms, read the
// verdict, save it, type a note, and find the note after reopening the library.
func TestDropCompareAnnotateReopen(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	u, _ := newTestApp(t, db)
	if get(u.library.count) != 0 {
		t.Fatal("a new library is not empty")
	}
	dropAndConfirm(t, u, "../demo/samples/baseline", "../demo/samples/fallback", "../demo/samples/established")
	eventually(t, "the import", func() bool { return !u.importer.busy && u.library.count() == 15 })
	if last := get(func() library.Report { return u.importer.last }); len(last.Errors) != 0 || len(last.Added) != 15 {
		t.Fatalf("import: %+v", last)
	}
	eventually(t, "the three arms in the sidebar", func() bool {
		return strings.Join(u.library.children[""], ",") == "arm:baseline,arm:established,arm:fallback"
	})
	shot(t, u, "library")

	compared := watchComparisons(u)
	ui(func() { u.compare.setArm(true, "baseline") })
	ui(func() { u.compare.setArm(false, "fallback") })
	compared(t, "baseline", "fallback")
	var verdict, causes string
	ui(func() { verdict, causes = u.compare.verdict.Text(), u.compare.causes.Text })
	if !strings.Contains(verdict, "not established") || !strings.Contains(causes, "target_not_hit") {
		t.Errorf("fallback verdict: %q %q", verdict, causes)
	}
	ui(func() { u.compare.setArm(false, "established") })
	compared(t, "baseline", "established")
	var rows int
	ui(func() { verdict, rows = u.compare.verdict.Text(), len(u.compare.checklist.Objects) })
	if !strings.Contains(verdict, "gain established") {
		t.Errorf("established verdict: %q", verdict)
	}
	if rows != 7 { // six checks of METHOD.md and the kernels line of rule 11
		t.Errorf("%d checklist rows", rows)
	}
	ui(func() { u.showView(viewCompare) })
	shot(t, u, "compare")

	cmp := get(func() int64 { test.Tap(u.compare.save); return u.verdict.current })
	if cmp == 0 {
		t.Fatal("saving did not open the verdict")
	}
	ui(func() { u.showView(viewVerdict) })
	ui(func() { test.Type(u.verdict.note, "FlashInfer decode kernels: TPOT -9 %.") })
	ui(func() { u.verdict.tags.SetText("attention, decode") })
	ui(func() { u.verdict.flush() })
	shot(t, u, "verdict")
	recipe := get(func() string { test.Tap(u.verdict.copy); return fyne.CurrentApp().Clipboard().Content() })
	for _, want := range []string{"#!/bin/sh", "--attention-backend FLASH_ATTN", "--attention-backend FLASHINFER", "vllm bench serve", "--seed 1234"} {
		if !strings.Contains(recipe, want) {
			t.Errorf("copied recipe lacks %q:\n%s", want, recipe)
		}
	}
	if m := get(u.win.MainMenu); m == nil || m.Items[len(m.Items)-1].Label != "Help" || m.Items[len(m.Items)-1].Items[0].Label != "About benchlens" {
		t.Error("no Help > About benchlens menu")
	}
	u.st.Close()

	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a, err := st.CurrentAnnotation(cmp)
	if err != nil || a.Note != "FlashInfer decode kernels: TPOT -9 %." || strings.Join(a.Tags, "|") != "attention|decode" || a.Author == "" {
		t.Errorf("after reopening: %+v %v", a, err)
	}
}

// watchComparisons returns a wait for the comparison of two given arms to be on display. It
// waits for that state, not for a count of finished comparisons: under load, a comparison
// started before the arms were both set may finish in between.
func watchComparisons(u *App) func(t *testing.T, base, cand string) {
	var shown [2]string // written by done and read by the wait, both under the UI lock
	ui(func() { u.compare.done = func() { shown = u.compare.sels } })
	return func(t *testing.T, base, cand string) {
		t.Helper()
		eventually(t, "the comparison of "+base+" with "+cand, func() bool { return shown == [2]string{base, cand} })
	}
}

// openSavedComparison saves a minimal comparison and opens it in the Verdict view.
func openSavedComparison(t *testing.T, u *App) int64 {
	t.Helper()
	id, err := u.st.SaveComparison(store.Comparison{Baseline: "a", Candidate: "b", Settings: []byte("{}"), Record: []byte(`{"status":"zero"}`), Status: "zero"})
	if err != nil {
		t.Fatal(err)
	}
	ui(func() {
		u.verdict.reload()
		u.verdict.open(id)
	})
	return id
}

// A status override is only saved with a reason.
func TestOverrideNeedsReason(t *testing.T) {
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	id := openSavedComparison(t, u)
	ui(func() { u.verdict.override.SetSelected("gain established") })
	if p := get(func() string { u.verdict.flush(); return u.verdict.problem.Text }); !strings.Contains(p, "needs a reason") {
		t.Errorf("no warning: %q", p)
	}
	if hist, _ := u.st.Annotations(id); len(hist) != 0 {
		t.Errorf("saved without a reason: %+v", hist)
	}
	ui(func() { u.verdict.reason.SetText("the traces show the kernel change; repeats were lost") })
	ui(func() { u.verdict.flush() })
	if cur, _ := u.st.CurrentAnnotation(id); cur.StatusOverride != "established" || cur.OverrideReason == "" {
		t.Errorf("override not saved: %+v", cur)
	}
	// The analyst's status stands first everywhere in the app, the proposal beside it.
	var got, picked string
	ui(func() { got, picked = u.verdict.proposed.Text(), u.verdict.pick.Selected })
	if !strings.HasPrefix(got, "gain established: ") || !strings.Contains(got, "proposed “zero gain”") {
		t.Errorf("headline after the override: %q", got)
	}
	if !strings.Contains(picked, "gain established") {
		t.Errorf("picker after the override: %q", picked)
	}
}

// Settings persist in the library (where the command line's compare reads them) and feed
// the analysis; settings an older version kept in the preferences move into the library once.
func TestSettingsPersist(t *testing.T) {
	u, a := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	ui(func() { u.settings.alpha.SetText("0.01") })
	ui(func() { u.settings.edges.SetText("600,1200") })
	libSettings := func(st *store.Store) compare.Settings {
		t.Helper()
		s, err := library.Settings(st)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if got := libSettings(u.st); got.Alpha != 0.01 || !slices.Equal(got.BucketEdges, []int{600, 1200}) {
		t.Errorf("library settings %+v", got)
	}
	s := get(u.settings.Settings)
	if s.Alpha != 0.01 || len(s.BucketEdges) != 2 || s.BucketEdges[1] != 1200 {
		t.Errorf("settings %+v", s)
	}
	ui(func() { u.showView(viewSettings) })
	problem := get(func() string { u.settings.alpha.SetText("2"); return u.settings.problem.Text })
	if problem == "" || libSettings(u.st).Alpha != 0.01 {
		t.Error("an invalid alpha was accepted")
	}
	shot(t, u, "settings")

	// A second app on the same library starts with them.
	w2, a2 := test.NewTempWindow(t, nil), test.NewTempApp(t)
	if get(func() float64 { return New(a2, w2, u.st, Options{}).settings.Settings().Alpha }) != 0.01 {
		t.Error("settings did not persist")
	}

	// Preferences of an older version move into a library that has no settings, once.
	a.Preferences().SetBool(prefMoved, false)
	a.Preferences().SetString(prefMinRepeats, "3")
	a.Preferences().SetString(prefNoiseFloor, "2")
	st2, err := store.Open(filepath.Join(t.TempDir(), "other.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	w3 := test.NewTempWindow(t, nil)
	shownRepeats := get(func() int { return New(a, w3, st2, Options{}).settings.Settings().MinRepeats })
	if got := libSettings(st2); got.MinRepeats != 3 || got.NoiseFloor != 0.02 || shownRepeats != 3 {
		t.Errorf("preferences not moved: %+v", got)
	}
}

func TestRunView(t *testing.T) {
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	dropAndConfirm(t, u, "../demo/samples/offset")
	eventually(t, "the import", func() bool { return !u.importer.busy && u.library.count() == 5 })
	ui(func() {
		u.run.show(u.library.rows[0].ID) // the first in id order
	})
	eventually(t, "the run", func() bool { return strings.Contains(u.run.title.Text, "offset") && u.run.evidence.Text != "" })
	// What is drawn: the backend card and the Evidence tab carry show's sections of each file.
	var backend, evidence, util string
	ui(func() {
		u.showView(viewRun)
		backend = drawnText(u.run.backend)
		u.run.tabs.SelectIndex(2)
		util = drawnText(u.run.utilNote)
		u.run.tabs.SelectIndex(3)
		evidence = drawnText(u.run.evidence)
		u.run.tabs.SelectIndex(0)
	})
	for _, c := range []struct{ where, got, want string }{
		{"backend", backend, "target FLASHINFER"},
		{"evidence", evidence, "profiler trace (kineto)"},
		{"evidence", evidence, "HtoD"},
		{"evidence", evidence, "server log ("},
		{"utilisation", util, "intermittent"},
	} {
		if !strings.Contains(c.got, c.want) {
			t.Errorf("run view's %s lacks %q:\n%s", c.where, c.want, c.got)
		}
	}
	ui(func() { u.showView(viewRun) })
	shot(t, u, "run")
	ui(func() { u.run.tabs.SelectIndex(1) })
	shot(t, u, "run-distributions")
	ui(func() { u.run.tabs.SelectIndex(2) })
	shot(t, u, "run-utilisation")
	// Histograms and the timeline read out what lies under the mouse, per series.
	for _, r := range []struct {
		tab  int
		c    *chartView
		want string
	}{{1, u.run.charts["ttft_hist"], "% in "}, {2, u.run.util, "% busy"}} {
		ui(func() { u.run.tabs.SelectIndex(r.tab) })
		eventually(t, "the chart laid out", func() bool { return r.c.plot != nil && r.c.Size().Width > 100 })
		text := get(func() string {
			s := r.c.Size()
			r.c.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(s.Width*0.3, s.Height*0.5)}})
			return r.c.readout.Text
		})
		if !strings.Contains(text, r.want) {
			t.Errorf("tab %d readout %q, want …%s…", r.tab, text, r.want)
		}
	}
}

// Every string the views translate has a Simplified Chinese translation.
func TestChineseTranslationsComplete(t *testing.T) {
	data, err := translations.ReadFile("translations/benchlens.zh_Hans.json")
	if err != nil {
		t.Fatal(err)
	}
	var zh map[string]string
	if err := json.Unmarshal(data, &zh); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("*.go")
	// lang.L("…") literals, and the run summary's add("…", …) keys, which it translates.
	re := regexp.MustCompile(`(?:lang\.L|\badd)\("((?:[^"\\]|\\.)*)"[,)]`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, _ := os.ReadFile(f)
		for _, m := range re.FindAllStringSubmatch(string(src), -1) {
			if _, ok := zh[m[1]]; !ok {
				t.Errorf("%s: no translation for %q", f, m[1])
			}
		}
	}
}

func waitBriefly() { time.Sleep(2 * time.Millisecond) }

// An import running while the analyst annotates loses neither side's writes.
func TestImportWhileAnnotating(t *testing.T) {
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	id := openSavedComparison(t, u)
	dropAndConfirm(t, u, "../demo/samples")
	for i := range 20 {
		ui(func() { u.verdict.note.SetText(fmt.Sprintf("note %d", i)) })
		ui(func() { u.verdict.flush() })
		if cur, _ := u.st.CurrentAnnotation(id); cur.Note != fmt.Sprintf("note %d", i) {
			t.Fatalf("autosave %d lost: %+v", i, cur)
		}
	}
	eventually(t, "the import", func() bool { return !u.importer.busy })
	if last := get(func() library.Report { return u.importer.last }); len(last.Added) != 82 || len(last.Errors) != 0 {
		t.Errorf("import: added %d, errors %v", len(last.Added), last.Errors)
	}
	hist, _ := u.st.Annotations(id)
	if len(hist) != 1 || hist[0].Note != "note 19" {
		t.Errorf("one sitting made %d history entries: %+v", len(hist), hist)
	}
}

// History keeps meaningful edits: the autosaves of one sitting are one entry; leaving the
// view starts the next.
func TestHistoryOneEntryPerSitting(t *testing.T) {
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	id := openSavedComparison(t, u)
	ui(func() { u.showView(viewVerdict) })
	for _, word := range strings.Fields("FlashInfer decode kernels cut TPOT by nine percent.") {
		ui(func() { test.Type(u.verdict.note, word+" ") })
		ui(func() { u.verdict.flush() }) // a pause in typing
	}
	ui(func() { u.showView(viewCompare) })
	ui(func() { u.showView(viewVerdict) })
	ui(func() { u.verdict.tags.SetText("decode") })
	ui(func() { u.verdict.flush() })
	hist, _ := u.st.Annotations(id)
	if len(hist) != 2 || hist[0].Note != "FlashInfer decode kernels cut TPOT by nine percent. " || strings.Join(hist[1].Tags, ",") != "decode" {
		t.Errorf("history: %+v", hist)
	}
}

// The run view says what the tool excluded and counted apart, and how the tool was known.
func TestRunViewToolWarmup(t *testing.T) {
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	rep := library.Import(u.st, []string{"../library/testdata/fidelity/guidellm-warmup"}, library.Options{})
	if len(rep.Added) != 1 || len(rep.Errors) > 0 {
		t.Fatalf("import: %v, errors %v", rep.Added, rep.Errors)
	}
	ui(func() { u.run.show(rep.Added[0]) })
	ui(func() { u.showView(viewRun) })
	var text string
	eventually(t, "the run", func() bool {
		text = drawnText(u.run.content)
		return strings.Contains(text, "guidellm-warmup") && strings.Contains(text, "Tool's warm-up")
	})
	for _, want := range []string{"Identified by benchmarks[]", "Tool's warm-up 1 warm-up, 1 cool-down",
		"1 failed (1 incomplete)", "Warning", "measurement window"} {
		if !strings.Contains(text, want) {
			t.Errorf("the run view does not show %q: %s", want, text)
		}
	}
	ui(func() { u.showView(viewRun) })
	shot(t, u, "run-tool-warmup")
}

// Help > About says which build this is, as --version does.
func TestAboutDialog(t *testing.T) {
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	var texts []string
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok {
			texts = append(texts, l.Text)
		}
		if c, ok := o.(*fyne.Container); ok {
			for _, x := range c.Objects {
				walk(x)
			}
		}
		if w, ok := o.(fyne.Widget); ok {
			if r := test.WidgetRenderer(w); r != nil {
				for _, x := range r.Objects() {
					walk(x)
				}
			}
		}
	}
	var shownAbout bool
	ui(func() {
		u.showAbout()
		if top := u.win.Canvas().Overlays().Top(); top != nil {
			shownAbout = true
			walk(top)
		}
	})
	if !shownAbout {
		t.Fatal("no About dialog")
	}
	all := strings.Join(texts, "\n")
	for _, want := range []string{"benchlens ", "commit:", "sqlite:     3."} {
		if !strings.Contains(all, want) {
			t.Errorf("About lacks %q: %q", want, all)
		}
	}
	shot(t, u, "about")
}

// Another analyst's edit saved while this one was typing is kept: this analyst's next
// autosave (a revision of their sitting's entry) is refused with the other's name on the
// screen, not written over theirs; reopening shows theirs, and edits go on from it.
func TestVerdictEditConflictShown(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	u, _ := newTestApp(t, db)
	id := openSavedComparison(t, u)
	ui(func() { u.verdict.note.SetText("mine") })
	ui(func() { u.verdict.flush() })
	other, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	cur, _ := other.CurrentAnnotation(id)
	if _, err := other.Annotate(store.Annotation{ComparisonID: id, Replaces: cur.ID, ReplacesRevision: cur.Revision, Author: "bo", Note: "theirs"}); err != nil {
		t.Fatal(err)
	}
	ui(func() { u.verdict.note.SetText("mine, later") })
	ui(func() { u.verdict.flush() })
	var problem string
	ui(func() { problem = u.verdict.problem.Text })
	if !strings.Contains(problem, "edited meanwhile by bo") {
		t.Errorf("no conflict shown: %q", problem)
	}
	if cur, _ := other.CurrentAnnotation(id); cur.Note != "theirs" {
		t.Errorf("the other analyst's edit was overwritten: %q", cur.Note)
	}
	var note string
	ui(func() { u.verdict.open(id); note = u.verdict.note.Text })
	if note != "theirs" {
		t.Errorf("reopening shows %q", note)
	}
	ui(func() { u.verdict.note.SetText("theirs, and mine") })
	ui(func() { u.verdict.flush() })
	if cur, _ := other.CurrentAnnotation(id); cur.Note != "theirs, and mine" {
		t.Errorf("after reopening, the edit was not saved: %q", cur.Note)
	}
}
