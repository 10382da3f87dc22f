package gui

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"benchlens/analysis/stats"
	"benchlens/internal/cputime"
	"benchlens/internal/nightly"
	"benchlens/internal/pgtest"
	"benchlens/library"
	"benchlens/model"
	"benchlens/store"
)

// historySeriesRuns is how long the benchmarked nightly series is (issue 27's scale).
const historySeriesRuns = 10000

// nightlySeries stores a series of n nightly runs in st, each a night of the generated nightly
// series as import stores it (its per-request records, server log and the log's evidence):
// the first third as night 0 (vLLM 0.13.0), the second as night 20 (0.13.1, TTFT −12 %), the
// rest as night 28 (0.14.0 fallen back to TRITON_ATTN, TPOT +10 %), each night's requests
// scaled by its own noise.
func nightlySeries(b *testing.B, st *store.Store, n int) {
	dir := b.TempDir()
	tmpl, err := store.Open(filepath.Join(dir, "template.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer tmpl.Close()
	type night struct {
		run *model.Run
		log []byte
		ev  *model.Evidence
	}
	var nights []night
	for _, k := range []int{0, 20, 28} {
		src := filepath.Join(dir, fmt.Sprint("night", k))
		if err := nightly.WriteOnly(src, "nightly-h100", k, k+1); err != nil {
			b.Fatal(err)
		}
		if rep := library.Import(tmpl, []string{src}, library.Options{}); len(rep.Errors) > 0 || len(rep.Added) != 1 {
			b.Fatalf("import night %d: %v", k, rep.Errors)
		}
		runs, err := tmpl.Runs()
		if err != nil {
			b.Fatal(err)
		}
		id := runs[len(runs)-1].ID
		r, err := tmpl.Run(id)
		if err != nil {
			b.Fatal(err)
		}
		evs, err := tmpl.RunEvidence(id)
		if err != nil || len(evs) != 1 {
			b.Fatalf("night %d: %d evidence, %v", k, len(evs), err)
		}
		logs, _ := filepath.Glob(filepath.Join(src, "*", "*", "server.log"))
		log, err := os.ReadFile(logs[0])
		if err != nil {
			b.Fatal(err)
		}
		nights = append(nights, night{r, log, &evs[0]})
	}
	rng := rand.New(rand.NewPCG(10, 27))
	start := time.Date(2000, 1, 1, 2, 0, 0, 0, time.UTC)
	for i := range n {
		t := nights[min(2, 3*i/n)]
		r := *t.run
		r.ID = 0
		r.Date = start.AddDate(0, 0, i).Format(time.RFC3339)
		ttft, gap := 1+0.01*rng.NormFloat64(), 1+0.01*rng.NormFloat64()
		r.Requests = make([]model.Request, len(t.run.Requests))
		for k, q := range t.run.Requests {
			q.TTFT *= ttft
			q.ITL = make([]float64, len(q.ITL))
			for g, x := range t.run.Requests[k].ITL {
				q.ITL[g] = x * gap
			}
			r.Requests[k] = q
		}
		r.Recomputed = nil
		stats.Recompute(&r)
		result := []byte(fmt.Sprintf(`{"night": %d}`, i))
		log := append(append([]byte(nil), t.log...), fmt.Sprintf("# night %d\n", i)...)
		file := func(name string, data []byte, kind string) *model.SourceFile {
			return &model.SourceFile{Name: name, Size: int64(len(data)), SHA256: fmt.Sprintf("%x-%s", i, name), Kind: kind, Data: data}
		}
		if _, err := st.AddRun(store.NewRun{Run: &r, Fingerprint: fmt.Sprint("night-", i), Files: []store.Attached{
			{File: file("result.json", result, model.KindResult), Role: model.FileResult},
			{File: file("server.log", log, t.ev.Kind), Role: model.FileAttachment, Evidence: t.ev}}}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHistoryFirstFrame10000Runs opens the History view on a series of 10,000 nightly
// runs in a library file: from choosing the series to its chart drawn.
func BenchmarkHistoryFirstFrame10000Runs(b *testing.B) {
	st, err := store.Open(filepath.Join(b.TempDir(), "lib.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	nightlySeries(b, st, historySeriesRuns)
	benchmarkHistoryFrame(b, st)
}

// BenchmarkHistoryFirstFrame10000RunsTeamLibrary does the same on a team library (the series
// built in a file, copied into PostgreSQL on this machine).
func BenchmarkHistoryFirstFrame10000RunsTeamLibrary(b *testing.B) {
	file, err := store.Open(filepath.Join(b.TempDir(), "lib.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer file.Close()
	nightlySeries(b, file, historySeriesRuns)
	st, err := store.Open(pgtest.NewDatabase(b))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	if err := file.CopyTo(st); err != nil {
		b.Fatal(err)
	}
	benchmarkHistoryFrame(b, st)
}

// benchmarkHistoryFrame times the History view reading the series and drawing its chart (the
// first frame: the runs and their change points), then reports the median and the least of
// those, the median process CPU time they took (what a loaded machine does not inflate as
// much), and the median time until the timeline and every step's evidence are on screen too.
func benchmarkHistoryFrame(b *testing.B, st *store.Store) {
	a := test.NewApp()
	defer a.Quit()
	w := test.NewWindow(nil)
	defer w.Close()
	var u *App
	ui(func() {
		u = New(a, w, st, Options{})
		w.Resize(fyne.NewSize(1280, 820))
	})
	for get(u.library.count) != historySeriesRuns {
		waitBriefly()
	}
	ui(func() {
		u.showView(viewHistory)
		u.history.series.Options = []string{"nightly-h100"}
		u.history.series.Selected = "nightly-h100"
	})
	var first, explained, cpu []time.Duration
	for i := 0; i < b.N; i++ {
		start, cpu0 := time.Now(), cputime.Self()
		ui(func() {
			u.history.loaded, u.history.explained = false, false
			u.history.load()
		})
		for !get(func() bool { return u.history.loaded }) {
			waitBriefly()
		}
		ui(func() {
			if n := len(u.history.rep.Runs); n != historySeriesRuns || len(u.history.chart.Objects) == 0 {
				b.Fatalf("%d runs in the series, %d objects drawn", n, len(u.history.chart.Objects))
			}
			w.Canvas().Capture()
		})
		first, cpu = append(first, time.Since(start)), append(cpu, cputime.Self()-cpu0)
		b.StopTimer()
		for !get(func() bool { return u.history.explained }) {
			waitBriefly()
		}
		explained = append(explained, time.Since(start))
		b.StartTimer()
	}
	b.ReportMetric(float64(median(first).Milliseconds()), "ms/first-frame")
	b.ReportMetric(float64(slices.Min(first).Milliseconds()), "min-ms/first-frame")
	b.ReportMetric(float64(median(cpu).Milliseconds()), "cpu-ms/first-frame")
	b.ReportMetric(float64(median(explained).Milliseconds()), "ms/explained")
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
