package library

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"benchlens/analysis/compare"
	"benchlens/analysis/history"
	"benchlens/model"
	"benchlens/store"
)

// BenchmarkHistoryLibrary reads a series of 2,000 nightly runs (summaries only, two steps)
// from a library file and finds its change points: what the History view waits for.
func BenchmarkHistoryLibrary(b *testing.B) {
	st, err := store.Open(filepath.Join(b.TempDir(), "lib.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	const n = 2000
	rng := rand.New(rand.NewPCG(1, 2))
	start := time.Date(2020, 1, 1, 2, 0, 0, 0, time.UTC)
	for i := range n {
		r := model.NewRun("vllm")
		r.Label, r.Model, r.Date = "nightly", "m", start.Add(time.Duration(i)*24*time.Hour).Format(time.RFC3339)
		r.MaxConcurrency, r.RequestRate = 16, model.Num(math.Inf(1))
		level := 12.0
		if i >= 800 {
			level = 13.2
		}
		if i >= 1500 {
			level = 12.6
		}
		for _, m := range model.Latencies {
			r.SetStat(m, "median", level*(1+0.01*rng.NormFloat64()))
			r.SetStat(m, "std", 0.5)
		}
		r.OutputThroughput = model.Num(1200 * 12 / level)
		data := []byte(fmt.Sprintf(`{"night": %d}`, i))
		sum := sha256.Sum256(data)
		f := &model.SourceFile{Name: fmt.Sprintf("night-%d.json", i), Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:]), Kind: "vllm", Data: data}
		if _, err := st.AddRun(store.NewRun{Run: r, Fingerprint: fmt.Sprint("bench-", i),
			Files: []store.Attached{{File: f, Role: model.FileResult}}}); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		rep, err := History(st, "nightly", history.DefaultSettings, compare.DefaultSettings)
		if err != nil || len(rep.Runs) != n || len(rep.ChangePoints) < 2 {
			b.Fatalf("%d runs, %d change points, %v", len(rep.Runs), len(rep.ChangePoints), err)
		}
	}
}
