package main

import (
	"database/sql"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"benchlens/model"
	"benchlens/store"
)

// TestCheckPrintsRawJSON: check in text mode printed its report as raw JSON; it says each kind
// of problem on a line with its count and ids, and how to repair orphans.
func TestCheckPrintsRawJSON(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a", "b"} {
		if _, err := st.PutFile(&model.SourceFile{Name: name, Size: 1, SHA256: name, Kind: model.KindOther, Data: []byte("x")}, store.NewOwner(), nil); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	// A pid far above pid_max stands for a killed importer: its files are orphans.
	raw, err := sql.Open("sqlite3", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`UPDATE file_claims SET pid = 99999999`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	out, _, code := bl(t, "--db", db, "check")
	want := db + ":\n  orphan files, no run refers to them: 2 (id 1; id 2): run benchlens check --repair to remove them\n"
	if code != exitRejected || !footprint.MatchString(strings.TrimPrefix(out, want)) || strings.Contains(out, "{") {
		t.Errorf("check: exit %d\n%s\nwant\n%s  N runs in SIZE…", code, out, want)
	}
	if out, _, code := bl(t, "--db", db, "check", "--repair"); code != 0 || !strings.HasPrefix(out, db+": ok\n") || !footprint.MatchString(strings.TrimPrefix(out, db+": ok\n")) {
		t.Errorf("check --repair: exit %d %q", code, out)
	}
}

// footprint is check's last line: the runs and the library's size, and the size a run.
var footprint = regexp.MustCompile(`^  \d+ runs in \d+(\.\d)? (bytes|KB|MB|GB)(: \d+(\.\d)? (bytes|KB|MB|GB) a run)?\n$`)
