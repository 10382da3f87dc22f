package main

import (
	"io"
	"os"
	"testing"

	"benchlens/internal/cputime"
	"benchlens/store"
)

// BenchmarkRunsJSONLibrary prints the library named by BENCHLENS_BENCH_LIBRARY (skipped
// without it), such as scripts/genlib's 100,000 runs, as `runs --json` does: the listing and
// every row's JSON text (issue 29 item 4).
func BenchmarkRunsJSONLibrary(b *testing.B) {
	path := os.Getenv("BENCHLENS_BENCH_LIBRARY")
	if path == "" {
		b.Skip("BENCHLENS_BENCH_LIBRARY names no library (go run ./scripts/genlib -out … -series 50 -per 2000)")
	}
	st, err := store.OpenWith(path, store.Options{Existing: true})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	cpu0 := cputime.Self()
	for b.Loop() {
		var out countingWriter
		if err := writeRunsJSON(&out, st); err != nil || out.n < 1000 {
			b.Fatal(out.n, err)
		}
		b.ReportMetric(float64(out.n)/(1<<20), "MB/op")
	}
	if cpu0 >= 0 {
		b.ReportMetric(float64((cputime.Self()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
	}
}

// countingWriter counts what is written to it and keeps none of it.
type countingWriter struct{ n int64 }

func (w *countingWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	return io.Discard.Write(p)
}
