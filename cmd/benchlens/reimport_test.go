package main

import (
	"path/filepath"
	"strings"
	"testing"

	"benchlens/store"
)

// Importing the fixtures again into a library an older benchlens wrote (other fingerprints)
// adds nothing and says so.
func TestReimportAfterUpgrade(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	if out, stderr, code := bl(t, "--db", db, "import", fixtures); code != 0 || !strings.Contains(out, "imported 13 runs") {
		t.Fatalf("import: exit %d, %q %q", code, out, stderr)
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	_, err = st.DB().Exec(`UPDATE runs SET fingerprint = lower(hex(randomblob(32)))`)
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	out, stderr, code := bl(t, "--db", db, "import", fixtures)
	if code != 0 || !strings.Contains(out, "imported 0 runs, 13 already in the library") {
		t.Errorf("re-import: exit %d, %q %q", code, out, stderr)
	}
	st, err = store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if runs, _ := st.Runs(); len(runs) != 13 {
		t.Errorf("%d runs after the re-import, want 13", len(runs))
	}
}
