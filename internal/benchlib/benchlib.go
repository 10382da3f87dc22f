// Package benchlib names the libraries the lab-scale benchmarks read (issue 29): made once by
// scripts/genlib, minutes on this machine, they are too large for a benchmark to make itself,
// so a benchmark without one is skipped rather than failed.
package benchlib

import (
	"os"
	"testing"
)

// Library is the library BENCHLENS_BENCH_LIBRARY names, such as scripts/genlib's 100,000 runs;
// the benchmark is skipped without one.
func Library(b testing.TB) string {
	return named(b, "BENCHLENS_BENCH_LIBRARY", "go run ./scripts/genlib -out … -series 50 -per 2000")
}

// OldLibrary is the library of an older schema BENCHLENS_BENCH_OLD_LIBRARY names, for the
// first open's migration; the benchmark is skipped without one.
func OldLibrary(b testing.TB) string {
	return named(b, "BENCHLENS_BENCH_OLD_LIBRARY", "a genlib library taken back to an older schema: store/migrate_bench_test.go")
}

func named(b testing.TB, env, how string) string {
	path := os.Getenv(env)
	if path == "" {
		b.Skipf("%s names no library (%s)", env, how)
	}
	return path
}
