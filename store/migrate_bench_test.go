package store

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"benchlens/internal/benchlib"
	"benchlens/internal/cputime"
)

// BenchmarkMigrateLibrary opens a copy of the library named by BENCHLENS_BENCH_OLD_LIBRARY
// (skipped without it), one of an older schema such as scripts/genlib's 100,000 runs taken
// back to schema 11, as its first open by this benchlens does: the backup, then every
// migration (issue 29 item 4). The copy is made before the clock starts.
func BenchmarkMigrateLibrary(b *testing.B) {
	old := benchlib.OldLibrary(b)
	dir := b.TempDir()
	var cpu int64
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		path := filepath.Join(dir, "lib.db")
		for _, f := range append(LibraryFiles(path), filepath.Join(dir, "backups")) {
			os.RemoveAll(f)
		}
		copyFile(b, old, path)
		b.StartTimer()
		cpu0 := cputime.Self()
		st, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		cpu += int64(cputime.Self() - cpu0)
		b.StopTimer()
		st.Close()
		backups, _ := filepath.Glob(path + ".schema*.bak")
		if len(backups) != 1 {
			b.Fatalf("backups %v", backups)
		}
		os.Remove(backups[0])
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu)/1e6/float64(b.N), "cpu-ms/op")
}

func copyFile(b *testing.B, from, to string) {
	src, err := os.Open(from)
	if err != nil {
		b.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		b.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		b.Fatal(err)
	}
}
