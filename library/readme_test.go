package library

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeReadAsUtilisation: a README quoting an `nvidia-smi --query-gpu=` command was refused
// as a utilisation trace and the import failed; it is kept beside the runs, unread, as other
// files of no known kind are.
func TestReadmeReadAsUtilisation(t *testing.T) {
	readme, err := os.ReadFile("../importers/utilisation/testdata/README.md")
	if err != nil || !strings.Contains(string(readme), "--query-gpu=") {
		t.Fatalf("fixture: %v", err)
	}
	root := writeTree(t, map[string]string{"README.md": string(readme), "r.json": vllmResult(t, "20250101-000001")})
	st := openStore(t)
	rep := Import(st, []string{root}, Options{})
	if len(rep.Errors) > 0 || len(rep.Added) != 1 {
		t.Fatalf("import: added %d, errors %v", len(rep.Added), rep.Errors)
	}
	if line := lineFor(t, rep, "README.md"); !strings.Contains(line, "kept beside the runs, unread") {
		t.Errorf("README.md: %q", line)
	}
}
