package gui

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"benchlens/internal/benchlib"
	"benchlens/internal/cputime"
	"benchlens/internal/pgtest"
	"benchlens/model"
	"benchlens/store"
)

// TestMain stops the PostgreSQL cluster a team-library benchmark started.
func TestMain(m *testing.M) { pgtest.Main(m) }

// addRuns stores n synthetic runs of reqs requests × out output tokens under a label.
func addRuns(b *testing.B, st *store.Store, label string, n, reqs, out int, tpot float64, seed uint64) {
	addRunsAt(b, st, label, n, reqs, out, tpot, seed, 0)
}

// addRunsAt is addRuns at a max concurrency (0: not recorded).
func addRunsAt(b *testing.B, st *store.Store, label string, n, reqs, out int, tpot float64, seed uint64, conc float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	for r := range n {
		run := model.NewRun("vllm")
		run.Label, run.Role, run.Model = label, "candidate", "meta-llama/Llama-3.1-8B-Instruct"
		run.OutputThroughput = model.Num(1 / tpot)
		run.SetStat(model.TTFT, "median", 50)
		if conc > 0 {
			run.MaxConcurrency = model.Num(conc)
		}
		run.Manifest = model.Manifest{"workload": map[string]any{"warmup_iters": 2}}
		for i := range reqs {
			gaps := make([]float64, out-1)
			for g := range gaps {
				gaps[g] = tpot * (1 + 0.05*rng.NormFloat64())
			}
			run.Requests = append(run.Requests, model.Request{InputLen: 512 + (i*37)%1024, OutputLen: out,
				TTFT: 0.05 + 0.01*rng.Float64(), TPOT: math.NaN(), Latency: math.NaN(), Start: math.NaN(), ITL: gaps})
		}
		name := fmt.Sprintf("%s-%d-%d-%g.json", label, seed, r, conc)
		f := &model.SourceFile{Name: name, Size: int64(len(name)), SHA256: name, Kind: model.KindResult, Data: []byte(name)}
		if _, err := st.AddRun(store.NewRun{Run: run, Fingerprint: name, Files: []store.Attached{{File: f, Role: "result"}}}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFirstFrame1000Runs builds the app on a library of 1,000 runs and draws its first
// frame with the sidebar filled.
func BenchmarkFirstFrame1000Runs(b *testing.B) {
	st, err := store.Open(filepath.Join(b.TempDir(), "lib.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	for k := range 20 {
		addRuns(b, st, fmt.Sprintf("arm-%02d", k), 50, 4, 8, 0.012, uint64(k))
	}
	benchmarkFirstFrame(b, st, 1000)
}

// BenchmarkFirstFrame10000RunsTeamLibrary does the same on a team library of 10,000 runs
// (built in a file, copied into PostgreSQL on this machine).
func BenchmarkFirstFrame10000RunsTeamLibrary(b *testing.B) {
	file, err := store.Open(filepath.Join(b.TempDir(), "lib.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer file.Close()
	for k := range 200 {
		addRuns(b, file, fmt.Sprintf("arm-%03d", k), 50, 4, 8, 0.012, uint64(k))
	}
	st, err := store.Open(pgtest.NewDatabase(b))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	if err := file.CopyTo(st); err != nil {
		b.Fatal(err)
	}
	benchmarkFirstFrame(b, st, 10000)
}

// benchLibrary opens the library BENCHLENS_BENCH_LIBRARY names, such as scripts/genlib's
// 100,000 runs (issue 29 item 4), and counts its runs; the benchmark is skipped without one.
func benchLibrary(b *testing.B) (*store.Store, int) {
	path := benchlib.Library(b)
	st, err := store.OpenWith(path, store.Options{Existing: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	var n int
	if err := st.DB().QueryRow(`SELECT count(*) FROM runs`).Scan(&n); err != nil {
		b.Fatal(err)
	}
	return st, n
}

// BenchmarkFirstFrameLibrary builds the app on the library of BENCHLENS_BENCH_LIBRARY and
// draws its first frame with the sidebar filled (every run listed).
func BenchmarkFirstFrameLibrary(b *testing.B) {
	st, n := benchLibrary(b)
	benchmarkFirstFrame(b, st, n)
}

// BenchmarkSidebarSearchLibrary types a keystroke into the sidebar's search over the library
// of BENCHLENS_BENCH_LIBRARY, one query and the next in turn, each regrouping the tree:
// narrow (scripts/genlib's nightly-049 holds 2,000 of 100,000 runs) and broad (every run).
func BenchmarkSidebarSearchLibrary(b *testing.B) {
	st, n := benchLibrary(b)
	a := test.NewApp()
	defer a.Quit()
	w := test.NewWindow(nil)
	defer w.Close()
	var u *App
	ui(func() {
		u = New(a, w, st, Options{})
		w.Resize(fyne.NewSize(1280, 820))
	})
	for get(u.library.count) != n || get(func() int { return len(u.history.series.Options) }) == 0 {
		waitBriefly() // and History's series: nothing else runs beside the keystrokes
	}
	for _, tc := range []struct {
		name    string
		queries [2]string
	}{{"narrow", [2]string{"nightly-04", "nightly-049"}}, {"broad", [2]string{"nightl", "nightly"}}} {
		b.Run(tc.name, func(b *testing.B) {
			i := 0
			report := cputime.PerOp(b)
			for b.Loop() {
				ui(func() { u.library.search.SetText(tc.queries[i%2]) })
				i++
			}
			report()
		})
	}
}

// benchmarkFirstFrame times New until the frame is drawn with every run in the sidebar, and
// reports the process's CPU time over that span and the time to the first frame with runs in
// the sidebar (a large library's first batch, shown while the rest is read). What the app
// reads after the sidebar (History's series) is waited for untimed, so a round never runs
// beside the last.
func benchmarkFirstFrame(b *testing.B, st *store.Store, runs int) {
	a := test.NewApp()
	defer a.Quit()
	var cpu, first time.Duration
	for b.Loop() {
		cpu0, t0 := cputime.Self(), time.Now()
		w := test.NewWindow(nil)
		var u *App
		ui(func() {
			u = New(a, w, st, Options{})
			w.Resize(fyne.NewSize(1280, 820))
		})
		for get(u.library.count) == 0 && runs > 0 {
			waitBriefly()
		}
		ui(func() { w.Canvas().Capture() })
		first += time.Since(t0)
		for get(u.library.count) != runs {
			waitBriefly()
		}
		ui(func() { w.Canvas().Capture() })
		cpu += cputime.Self() - cpu0
		b.StopTimer()
		for get(func() int { return len(u.history.series.Options) }) == 0 && runs > 0 {
			waitBriefly()
		}
		ui(w.Close)
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(first.Milliseconds())/float64(b.N), "ms/first-rows")
}

// BenchmarkCompareSwitch switches the compare view's candidate between two arms of 5 runs ×
// 20,000 requests (64 output tokens) against a baseline of the same size, after each was
// shown once.
func BenchmarkCompareSwitch(b *testing.B) {
	st, err := store.Open(filepath.Join(b.TempDir(), "lib.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	addRuns(b, st, "base", 5, 20000, 64, 0.012, 1)
	addRuns(b, st, "cand-a", 5, 20000, 64, 0.011, 2)
	addRuns(b, st, "cand-b", 5, 20000, 64, 0.0125, 3)
	switchCandidates(b, st, nil)
}

// switchCandidates shows base against cand-a and cand-b once each, then times switching
// between them; check looks at the view after the warm-up.
func switchCandidates(b *testing.B, st *store.Store, check func(*App)) {
	a := test.NewApp()
	defer a.Quit()
	w := test.NewWindow(nil)
	// Each switch waits for its own comparison to be on display, not for any one to finish.
	shown := make(chan [2]string, 8)
	var u *App
	ui(func() {
		u = New(a, w, st, Options{})
		w.Resize(fyne.NewSize(1280, 820))
		u.compare.done = func() { shown <- u.compare.sels }
	})
	show := func(cand string) {
		ui(func() { u.compare.setArm(false, cand) })
		for <-shown != [2]string{"base", cand} {
		}
	}
	ui(func() { u.compare.setArm(true, "base") })
	show("cand-a")
	show("cand-b")
	if check != nil {
		ui(func() { check(u) })
	}
	i := 0
	for b.Loop() {
		show([]string{"cand-a", "cand-b"}[i%2])
		i++
	}
	b.ReportMetric(float64(get(func() time.Duration { return u.compare.Took }).Milliseconds()), "ms/last-switch")
}

// BenchmarkCompareSwitchSweep switches the candidate between two sweeps of 8 concurrency
// points × 5 repeats × 2,000 requests (128 output tokens) against a baseline sweep of the
// same size, after each was shown once: every point compared, charts included.
func BenchmarkCompareSwitchSweep(b *testing.B) {
	switchSweeps(b, []float64{1, 2, 4, 8, 16, 32, 64, 128}, 5, 2000)
}

// BenchmarkCompareSwitchSweepOneRun switches the candidate between two sweeps of 36
// concurrency points run once each (100 requests, 128 output tokens), as aurotripathy's
// FP16/FP8 sweep: the stages check and the load-point panel of 36 points.
func BenchmarkCompareSwitchSweepOneRun(b *testing.B) {
	points := make([]float64, 36)
	for i := range points {
		points[i] = float64(i + 1)
	}
	switchSweeps(b, points, 1, 100)
}

// switchSweeps stores a baseline and two candidate sweeps of runs repeats × reqs requests at
// each concurrency of points, and switches the candidate between them.
func switchSweeps(b *testing.B, points []float64, runs, reqs int) {
	st, err := store.Open(filepath.Join(b.TempDir(), "lib.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	for k, arm := range []struct {
		label string
		tpot  float64
	}{{"base", 0.012}, {"cand-a", 0.011}, {"cand-b", 0.0125}} {
		for p, c := range points {
			addRunsAt(b, st, arm.label, runs, reqs, 128, arm.tpot*(1+c/256), uint64(100*k+p), c)
		}
	}
	switchCandidates(b, st, func(u *App) {
		if n := len(u.compare.record.LoadPoints); n != len(points) {
			b.Fatalf("%d load points", n)
		}
	})
}
