package library

import (
	"archive/zip"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Two entries of one name in a zip: the first is imported, the second refused with a line
// naming it. Before, both runs pointed at the second entry's bytes and the first was orphaned.
func TestDuplicateZipEntryRefused(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, date := range []string{"20250101-000001", "20250101-000002"} {
		w, err := zw.Create("lab/result.json")
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(vllmResult(t, date)))
	}
	zw.Close()
	zipPath := filepath.Join(t.TempDir(), "dup.zip")
	os.WriteFile(zipPath, buf.Bytes(), 0o644)
	st := openStore(t)
	rep := Import(st, []string{zipPath}, Options{})
	if len(rep.Added) != 1 || len(rep.Errors) != 1 || !strings.Contains(rep.Errors[0].Error(), "result.json") ||
		!strings.Contains(rep.Errors[0].Error(), "second entry of this name") {
		t.Fatalf("added %d, errors %v", len(rep.Added), rep.Errors)
	}
	runs, _ := st.Runs()
	files, _ := st.RunFiles(runs[0].ID)
	got, err := st.FileContent(files[0].ID)
	if err != nil || string(got) != vllmResult(t, "20250101-000001") || runs[0].Date != "2025-01-01T00:00:01" {
		t.Errorf("the run (date %s) does not hold the first entry's bytes: %q %v", runs[0].Date, got, err)
	}
	if c, err := st.Check(); err != nil || !c.OK() {
		t.Errorf("check: %v %v", c, err)
	}
}

// A disk that fills mid-import (SQLite's max_page_count stands in for a small tmpfs): no run
// is stored without its bytes, check finds nothing wrong, and once there is room a re-import
// stores every run whole instead of saying "already in the library".
func TestFullDiskStoresNoRunWithoutItsBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	files := map[string]string{}
	for i := range 3 {
		noise := make([]byte, 3<<20) // incompressible: the log fills the disk
		for j := range noise {
			noise[j] = byte('a' + rng.IntN(26))
		}
		files[fmt.Sprintf("run-%d/result.json", i)] = vllmResult(t, fmt.Sprintf("20250101-00000%d", i))
		files[fmt.Sprintf("run-%d/server.log", i)] = "INFO 03-25 22:31:57 selector.py:135] Using Flash Attention backend.\n" + string(noise) + "\n"
	}
	root := writeTree(t, files)
	st := openStore(t)
	db := st.DB()
	db.SetMaxOpenConns(1)                                            // the page limit is per connection
	if _, err := db.Exec(`PRAGMA max_page_count = 80`); err != nil { // 80 pages of 64 KiB: 5 MiB
		t.Fatal(err)
	}
	rep := Import(st, []string{root}, Options{})
	full := false
	for _, err := range rep.Errors {
		full = full || strings.Contains(err.Error(), "full")
	}
	if !full {
		t.Fatalf("the disk did not fill: added %d, errors %v", len(rep.Added), rep.Errors)
	}
	t.Logf("full disk: added %d, errors %v", len(rep.Added), rep.Errors)
	if c, err := st.Check(); err != nil || !c.OK() {
		t.Errorf("check after a full disk: %v %v", c, err)
	}
	runs, _ := st.Runs()
	for _, r := range runs {
		fs, _ := st.RunFiles(r.ID)
		for _, f := range fs {
			if b, err := st.FileContent(f.ID); err != nil || int64(len(b)) != f.Size {
				t.Errorf("run %d: %s stored without its bytes (%d of %d, %v)", r.ID, f.Name, len(b), f.Size, err)
			}
		}
	}
	if _, err := db.Exec(`PRAGMA max_page_count = 1000000`); err != nil {
		t.Fatal(err)
	}
	rep = Import(st, []string{root}, Options{})
	if len(rep.Errors) > 0 || len(rep.Added)+len(rep.Existing) != 3 || len(rep.Added) != 3-len(runs) {
		t.Errorf("re-import with room: added %d, existing %d, errors %v", len(rep.Added), len(rep.Existing), rep.Errors)
	}
	if c, err := st.Check(); err != nil || !c.OK() {
		t.Errorf("check after the re-import: %v %v", c, err)
	}
}
