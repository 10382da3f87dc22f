package library

import (
	"os"
	"path/filepath"
	"testing"

	"benchlens/store"
)

// WriteFile (a chart the app saves) writes and replaces a regular file whole, and refuses the
// library, its side files and a folder as every export does.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	lib := filepath.Join(dir, "lib.db")
	st, err := store.Open(lib)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	out := filepath.Join(dir, "chart.png")
	for _, data := range []string{"first", "second"} {
		if err := WriteFile(lib, out, []byte(data)); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(out); string(got) != data {
			t.Errorf("wrote %q, want %q", got, data)
		}
	}
	for _, bad := range []string{lib, lib + "-wal", dir} {
		if err := WriteFile(lib, bad, []byte("x")); err == nil {
			t.Errorf("WriteFile(%s) was not refused", bad)
		}
	}
	if fi, err := os.Stat(lib); err != nil || fi.Size() == 1 {
		t.Errorf("the library was touched: %v", err)
	}
}
