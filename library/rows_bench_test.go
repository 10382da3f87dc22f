package library

import (
	"fmt"
	"path/filepath"
	"testing"

	"benchlens/internal/benchlib"
	"benchlens/internal/cputime"
	"benchlens/model"
	"benchlens/store"
)

// BenchmarkRows lists a library of 10,000 runs as `runs` and the app's sidebar read it: the
// demo's runs stored again and again (without their requests) under other fingerprints.
func BenchmarkRows(b *testing.B) {
	st, err := store.Open(filepath.Join(b.TempDir(), "rows.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	if rep := LoadDemo(st); len(rep.Errors) > 0 {
		b.Fatal(rep.Errors)
	}
	demo, err := st.Runs()
	if err != nil || len(demo) == 0 {
		b.Fatal(len(demo), err)
	}
	for i := len(demo); i < 10000; i++ {
		run := *demo[i%len(demo)]
		run.Requests = nil
		name := fmt.Sprintf("copy-%d.json", i)
		f := &model.SourceFile{Name: name, Size: int64(len(name)), SHA256: name, Kind: model.KindResult, Data: []byte(name)}
		if _, err := st.AddRun(store.NewRun{Run: &run, Fingerprint: name, Files: []store.Attached{{File: f, Role: "result"}}}); err != nil {
			b.Fatal(err)
		}
	}
	report := cputime.PerOp(b)
	for b.Loop() {
		rows, err := Rows(st)
		if err != nil || len(rows) != 10000 {
			b.Fatal(len(rows), err)
		}
	}
	report()
}

// BenchmarkRowsLibrary lists a library named by BENCHLENS_BENCH_LIBRARY (skipped without
// it), such as scripts/genlib's 100,000 runs (issue 29 item 4), every row as `runs` reads it:
// a batch at a time (EachRows).
func BenchmarkRowsLibrary(b *testing.B) {
	path := benchlib.Library(b)
	st, err := store.OpenWith(path, store.Options{Existing: true})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	report := cputime.PerOp(b)
	for b.Loop() {
		n := 0
		if err := EachRows(st, func(rows []RunRow) error { n += len(rows); return nil }); err != nil || n == 0 {
			b.Fatal(n, err)
		}
	}
	report()
}
