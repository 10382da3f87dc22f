package main

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// "import --label-by folder ." from inside a lab's folder makes an arm of each experiment
// folder, as importing the folder by its name does: the bundle "." had paths without its own
// name, so each run's folder was read as the bundle's own and every run took the bundle's name.
func TestImportDotByFolder(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lab.db")
	t.Chdir(filepath.Join("testdata", "labruns", "five-shapes"))
	if out, errOut, code := bl(t, "--db", db, "import", "--label-by", "folder", "."); code != 0 {
		t.Fatalf("import: exit %d\n%s%s", code, out, errOut)
	}
	out, _, _ := bl(t, "--db", db, "runs", "--json")
	var runs []struct {
		Label string `json:"label"`
	}
	if err := json.Unmarshal([]byte(out), &runs); err != nil {
		t.Fatal(err)
	}
	arms := map[string]int{}
	for _, r := range runs {
		arms[r.Label]++
	}
	if len(arms) != 3 || arms["random"] == 0 || arms["rerun"] == 0 || arms["sharegpt"] == 0 {
		t.Errorf("arms %v, want random, rerun and sharegpt", arms)
	}
}
