package main

import (
	"io"
	"testing"

	"benchlens/internal/benchlib"
	"benchlens/internal/cputime"
	"benchlens/store"
)

// BenchmarkRunsJSONLibrary prints the library named by BENCHLENS_BENCH_LIBRARY (skipped
// without it), such as scripts/genlib's 100,000 runs, as `runs --json` does: the listing and
// every row's JSON text (issue 29 item 4).
func BenchmarkRunsJSONLibrary(b *testing.B) { benchmarkRunsWrite(b, writeRunsJSON) }

// countingWriter counts what is written to it and keeps none of it.
type countingWriter struct{ n int64 }

func (w *countingWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	return io.Discard.Write(p)
}

// BenchmarkRunsLibrary prints the library named by BENCHLENS_BENCH_LIBRARY (skipped without
// it) as `runs` does: the listing and every row's line of the table (issue 29 item 4, < 1 s).
func BenchmarkRunsLibrary(b *testing.B) { benchmarkRunsWrite(b, writeRunsTable) }

// benchmarkRunsWrite times write listing the library of BENCHLENS_BENCH_LIBRARY, reporting
// its CPU time and the megabytes it printed.
func benchmarkRunsWrite(b *testing.B, write func(io.Writer, *store.Store) error) {
	path := benchlib.Library(b)
	st, err := store.OpenWith(path, store.Options{Existing: true})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	report := cputime.PerOp(b)
	for b.Loop() {
		var out countingWriter
		if err := write(&out, st); err != nil || out.n < 1000 {
			b.Fatal(out.n, err)
		}
		b.ReportMetric(float64(out.n)/(1<<20), "MB/op")
	}
	report()
}
