package library

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchlens/demo"
	"benchlens/store"
)

// A library replaced under an import (another library moved over its file) is noticed
// before the next batch of runs is stored (here 10 runs a batch, the replacement coming after
// the first): the import stops with one line saying so, the library moved
// in keeps its runs and stays whole, and what the import had stored is saved beside the name.
// Before, the import went on ("imported 82 runs", exit 0) into a file that no longer had a
// name, and the library moved in was damaged by the import's -wal.
func TestLibraryReplacedUnderImport(t *testing.T) {
	dir := t.TempDir()
	bundle := filepath.Join(dir, "demo")
	if err := demo.Generate(bundle); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.db")
	ost, err := store.Open(other)
	if err != nil {
		t.Fatal(err)
	}
	if rep := Import(ost, []string{filepath.Join(bundle, "baseline")}, Options{}); len(rep.Added) != 5 {
		t.Fatalf("the other library: %v", rep.Errors)
	}
	ost.Close()

	path := filepath.Join(dir, "lib.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rep := Import(st, []string{bundle}, Options{Batch: store.BatchLimits{Runs: 10}, Progress: func(done, total int, name string) {
		if done == 10 {
			if err := os.Rename(other, path); err != nil {
				t.Error(err)
			}
		}
	}})
	if len(rep.Added) != 10 {
		t.Errorf("%d runs stored, want the 10 before the replacement", len(rep.Added))
	}
	var said []string
	for _, err := range rep.Errors {
		if errors.Is(err, store.ErrReplaced) {
			said = append(said, err.Error())
		}
	}
	if len(said) != 1 || len(rep.Errors) != 1 || !strings.Contains(said[0], "saved in") {
		t.Errorf("errors: %v", rep.Errors)
	}
	st.Close()
	if _, err := os.Stat(path + "-wal"); err == nil {
		t.Error("the import's -wal is left beside the library moved in")
	}

	moved, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer moved.Close()
	runs, _ := moved.Runs()
	if rep, err := moved.Check(); err != nil || !rep.OK() || len(runs) != 5 {
		t.Errorf("the library moved in: %d runs, check %v %v", len(runs), rep, err)
	}
	kept, _ := filepath.Glob(path + ".displaced-*.db")
	if len(kept) != 1 {
		t.Fatalf("saved copies: %v", kept)
	}
	saved, err := store.Open(kept[0])
	if err != nil {
		t.Fatal(err)
	}
	defer saved.Close()
	if runs, _ := saved.Runs(); len(runs) != 10 {
		t.Errorf("the saved copy holds %d runs, want 10", len(runs))
	}
}
