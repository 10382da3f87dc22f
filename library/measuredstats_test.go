package library

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"benchlens/analysis/compare"
	"benchlens/internal/pgtest"
	"benchlens/model"
	"benchlens/store"
)

// measuredLibrary imports the demo, the fixtures and the fidelity files (through Import, as
// a user would), and stores generated runs with what a compare meets in the wild: unknown
// and infinite times, failed requests, a zero time or gap of either sign, requests out of start
// order, a declared warm-up, one longer than the run, and a tool's own warm-up.
func measuredLibrary(t *testing.T, path string) *store.Store {
	t.Helper()
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if rep := LoadDemo(st); len(rep.Errors) > 0 {
		t.Fatal(rep.Errors)
	}
	for _, dir := range []string{fixtures, fidelity} {
		if rep := Import(st, []string{dir}, Options{}); len(rep.Added) == 0 {
			t.Fatalf("nothing imported from %s: %v", dir, rep.Errors)
		}
	}
	rng := rand.New(rand.NewPCG(15, 15))
	for k := range 40 {
		run := model.NewRun("vllm")
		run.Label, run.Model = []string{"gen-a", "gen-b"}[k%2], "m"
		switch k % 5 {
		case 1:
			run.Manifest = model.Manifest{"workload": map[string]any{"warmup_iters": 1 + rng.IntN(4)}}
		case 2:
			run.Manifest = model.Manifest{"workload": map[string]any{"warmup_iters": 1000}}
		case 3:
			run.ToolWarmup = &model.Warmup{Requests: 2}
		}
		run.Requests = make([]model.Request, 5+rng.IntN(40))
		for i := range run.Requests {
			q := model.Request{InputLen: 10 * rng.IntN(40), OutputLen: 1 + rng.IntN(30), TTFT: rng.Float64() / 10,
				TPOT: math.NaN(), Latency: math.NaN(), Start: float64(i)}
			switch rng.IntN(12) {
			case 0:
				q.TTFT = math.NaN()
			case 1:
				q.Error = "timeout"
			case 2:
				q.Latency = math.Inf(1)
			case 3:
				q.TPOT = rng.Float64() / 100
			case 4:
				q.InputLen, q.OutputLen = -1, -1
			case 5:
				q.TTFT = math.Copysign(0, -1)
			}
			if k%4 == 0 {
				q.Start = float64(rng.IntN(10)) // out of order, with ties
			}
			if rng.IntN(5) > 0 {
				q.ITL = make([]float64, rng.IntN(30))
				for g := range q.ITL {
					q.ITL[g] = rng.Float64() / 50
					if rng.IntN(40) == 0 {
						q.ITL[g] = math.Copysign(0, float64(rng.IntN(2)*2-1))
					}
				}
			}
			run.Requests[i] = q
		}
		run.Measured = measuredAsStored(run) // as import stores it
		name := fmt.Sprintf("gen-%d.json", k)
		f := &model.SourceFile{Name: name, Size: int64(len(name)), SHA256: name, Kind: model.KindResult, Data: []byte(name)}
		if _, err := st.AddRun(store.NewRun{Run: run, Fingerprint: name, Files: []store.Attached{{File: f, Role: model.FileResult}}}); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

func allRunIDs(t *testing.T, st *store.Store) []int64 {
	t.Helper()
	runs, err := st.Runs()
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]int64, len(runs))
	for i, r := range runs {
		ids[i] = r.ID
	}
	return ids
}

// sameMeasured says a and b are the same statistics to the bit (NaN included).
func sameMeasured(a, b *model.MeasuredStats) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Requests != b.Requests || a.Dropped != b.Dropped || len(a.Quantiles) != len(b.Quantiles) {
		return false
	}
	for metric, qa := range a.Quantiles {
		qb, ok := b.Quantiles[metric]
		if !ok {
			return false
		}
		for i := range qa {
			if math.Float64bits(qa[i]) != math.Float64bits(qb[i]) {
				return false
			}
		}
	}
	return true
}

// Every run's measured statistics, as stored at import and read back, are the floats the
// compare computes from its requests, to the bit, in either engine; runs whose requests are
// a sample, or have no requests, store none.
func TestStoredMeasuredStatsAreTheRecomputed(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { storedAreRecomputed(t, filepath.Join(t.TempDir(), "lib.db")) })
	t.Run("postgres", func(t *testing.T) { storedAreRecomputed(t, pgtest.NewDatabase(t)) })
}

func storedAreRecomputed(t *testing.T, location string) {
	st := measuredLibrary(t, location)
	defer st.Close()
	runs, err := st.RunsWithRequests(allRunIDs(t, st))
	if err != nil {
		t.Fatal(err)
	}
	stored := 0
	for _, r := range runs {
		got := r.Measured
		r.Measured = nil
		want := compare.MeasuredStatsOf(r)
		if !sameMeasured(got, want) {
			t.Errorf("run %d (%s): stored %+v, recomputed %+v", r.ID, r.Label, got, want)
		}
		if got != nil {
			stored++
		}
		if (r.Sampled != nil || len(r.Requests) == 0) && got != nil {
			t.Errorf("run %d stores statistics of no measured requests", r.ID)
		}
	}
	if stored < 60 || stored == len(runs) {
		t.Fatalf("%d of %d runs store statistics: the library does not test both kinds", stored, len(runs))
	}
}

// A compare reads the stored statistics and gives, every field and float, the record of the
// same runs compared from their requests alone: as stored, with statistics that this
// benchlens cannot read, and with none stored (a library of schema 14, migrated), where the
// compares keep what they computed for the next: it reads them and gives the same records.
func TestCompareWithStoredStatsIsTheRecompute(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lib.db")
	st := measuredLibrary(t, path)
	defer func() { st.Close() }()
	pairs := [][2]string{{"gen-a", "gen-b"}}
	for _, arm := range []string{"established", "zero", "offset", "offset-ops", "fallback", "driver-change", "drift", "few-repeats"} {
		pairs = append(pairs, [2]string{"baseline", arm})
	}
	labels, err := st.LabelRoles()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range slices.Sorted(maps.Keys(labels)) { // the fixtures' and fidelity files' arms, against the demo's baseline
		if !slices.ContainsFunc(pairs, func(p [2]string) bool { return p[1] == l }) && l != "baseline" && l != "gen-a" {
			pairs = append(pairs, [2]string{"baseline", l})
		}
	}
	records := func() []string {
		var out []string
		for _, p := range pairs {
			rec, err := Compare(st, p[0], p[1], compare.DefaultSettings)
			if err != nil {
				t.Fatalf("%s vs %s: %v", p[0], p[1], err)
			}
			b, _ := json.Marshal(rec)
			out = append(out, string(b))
		}
		return out
	}
	var measured int
	if err := st.DB().QueryRow(`SELECT count(*) FROM runs WHERE measured IS NOT NULL`).Scan(&measured); err != nil || measured < 60 {
		t.Fatalf("%d runs store statistics (%v)", measured, err)
	}
	want := records()
	if len(want) < 12 {
		t.Fatalf("only %d comparisons", len(want))
	}
	for _, step := range []struct {
		name string
		sql  []string
	}{
		{"statistics of an unknown version", []string{`UPDATE runs SET measured = X'09'`}},
		{"schema 14, migrated", []string{`ALTER TABLE runs DROP COLUMN point`, `ALTER TABLE runs DROP COLUMN measured`, `PRAGMA user_version = 14`}},
	} {
		for _, q := range step.sql {
			if _, err := st.DB().Exec(q); err != nil {
				t.Fatal(err)
			}
		}
		st.Close()
		if st, err = store.Open(path); err != nil {
			t.Fatal(err)
		}
		for round := range 2 { // the second reads what the first kept
			got := records()
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("%s, compare %d: %s vs %s differs from the recompute:\n%s\nwant\n%s", step.name, round+1, pairs[i][0], pairs[i][1], got[i], want[i])
				}
			}
		}
	}
	// The migrated library's compares kept the statistics of the runs they compared.
	var kept int
	if err := st.DB().QueryRow(`SELECT count(*) FROM runs WHERE measured IS NOT NULL`).Scan(&kept); err != nil || kept < measured-10 {
		t.Errorf("%d runs keep statistics after the migrated library's compares, %d were stored at import (%v)", kept, measured, err)
	}
}
