package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A folder named on macOS ("café" decomposed: e and U+0301) gives a label found when typed
// composed, as keyboards type it: labels are stored in NFC, and looked up in both forms.
// Before, "café" typed matched no run, and the list of labels showed the same word.
func TestDecomposedFolderLabelFoundWhenTyped(t *testing.T) {
	lab := filepath.Join(t.TempDir(), "lab")
	decomposed, composed := "cafe\u0301", "caf\u00e9"
	for from, to := range map[string]string{"baseline": decomposed, "offset": "offset"} {
		if out, err := exec.Command("mkdir", "-p", lab).CombinedOutput(); err != nil {
			t.Fatal(string(out))
		}
		if out, err := exec.Command("cp", "-r", filepath.Join("../../demo/samples", from), filepath.Join(lab, to)).CombinedOutput(); err != nil {
			t.Fatal(string(out))
		}
	}
	db := filepath.Join(t.TempDir(), "lib.db")
	if out, stderr, code := bl(t, "--db", db, "import", "--label-by", "folder", lab); code != 0 {
		t.Fatalf("import: exit %d\n%s%s", code, out, stderr)
	}
	out, _, _ := bl(t, "--db", db, "runs", "--json")
	var rows []struct{ Label string }
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Label != composed && r.Label != "offset" {
			t.Errorf("label stored as %q, want %q (NFC)", r.Label, composed)
		}
	}
	for _, typed := range []string{composed, decomposed} {
		out, stderr, code := bl(t, "--db", db, "compare", "--baseline", typed, "--candidate", "offset")
		if code != 0 || !strings.Contains(out, "baseline:  "+composed+" (5 runs") {
			t.Errorf("compare --baseline %q: exit %d\n%.300s\n%s", typed, code, out, stderr)
		}
	}
}
