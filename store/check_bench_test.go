package store

import (
	"os"
	"testing"

	"benchlens/internal/cputime"
)

// BenchmarkCheckLibrary checks a library named by BENCHLENS_BENCH_LIBRARY (skipped without
// it), such as scripts/genlib's 100,000 runs, as `benchlens check` does (issue 29 item 4:
// < 5 s): SQLite's integrity and foreign-key checks and benchlens' own invariants.
func BenchmarkCheckLibrary(b *testing.B) {
	path := os.Getenv("BENCHLENS_BENCH_LIBRARY")
	if path == "" {
		b.Skip("BENCHLENS_BENCH_LIBRARY names no library (go run ./scripts/genlib -out … -series 50 -per 2000)")
	}
	st, err := OpenWith(path, Options{Existing: true})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	cpu0 := cputime.Self()
	for b.Loop() {
		rep, err := st.Check()
		if err != nil || !rep.OK() || rep.Runs == 0 {
			b.Fatal(rep, err)
		}
	}
	if cpu0 >= 0 {
		b.ReportMetric(float64((cputime.Self()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
	}
}
