package library

import (
	"os"
	"path/filepath"
	"testing"

	"benchlens/store"
)

// A file stored ahead of its run (above aheadAbove) is copied from SQLite's log into the
// library file by the import itself, while the library is still open: the runs' commit, on
// the core that has nothing to overlap with it, then copies only the runs' own pages. Without
// the checkpoint, a log far below SQLite's threshold (1,000 pages) keeps them until Close.
func TestFilesStoredAheadAreInTheLibraryFile(t *testing.T) {
	file := filepath.Join(fixtures, "h100-fp16-vs-fp8",
		"FP16-openai-10.0qps-itkns-1024-otkns-512-concurrency64-Llama-3.1-8B-Instruct-20250325-224256.json")
	fi, err := os.Stat(file)
	if err != nil || fi.Size() < aheadAbove {
		t.Fatalf("fixture %s: %v (%d bytes; stored ahead above %d)", file, err, fi.Size(), aheadAbove)
	}
	path := filepath.Join(t.TempDir(), "lib.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	before := fileSize(t, path)
	if rep := Import(st, []string{file}, Options{}); len(rep.Errors) > 0 || len(rep.Added) != 1 {
		t.Fatalf("import: %+v", rep)
	}
	// Its chunks keep about half of the file's bytes (Huffman-coded printed floats).
	if grown := fileSize(t, path) - before; grown < fi.Size()/4 {
		t.Fatalf("the library file grew by %d bytes for a file of %d stored ahead: its pages are still only in the log", grown, fi.Size())
	}
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}
