package store

import (
	"testing"

	"benchlens/internal/benchlib"
	"benchlens/internal/cputime"
)

// BenchmarkCheckLibrary checks a library named by BENCHLENS_BENCH_LIBRARY (skipped without
// it), such as scripts/genlib's 100,000 runs, as `benchlens check` does (issue 29 item 4:
// < 5 s): SQLite's integrity and foreign-key checks and benchlens' own invariants.
func BenchmarkCheckLibrary(b *testing.B) {
	path := benchlib.Library(b)
	st, err := OpenWith(path, Options{Existing: true})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	report := cputime.PerOp(b)
	for b.Loop() {
		rep, err := st.Check()
		if err != nil || !rep.OK() || rep.Runs == 0 {
			b.Fatal(rep, err)
		}
	}
	report()
}
