package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// import --reapply-manifests applies a bundle.yaml put beside runs already stored, with a
// line per run naming what changed; run again, it says nothing changed; beside --label it is
// a usage error.
func TestImportReapplyManifests(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	dir := filepath.Join(t.TempDir(), "h100")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(fixtures, "h100-fp16-vs-fp8")
	names, err := filepath.Glob(filepath.Join(src, "FP8-*.json"))
	if err != nil || len(names) != 2 {
		t.Fatalf("fixtures: %v %v", names, err)
	}
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(n)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, stderr, code := bl(t, "--db", db, "import", dir); code != 0 || !strings.Contains(out, "imported 2 runs") {
		t.Fatalf("import: exit %d, %q %q", code, out, stderr)
	}
	if err := os.WriteFile(filepath.Join(dir, "bundle.yaml"), []byte("label: FP8\nrole: candidate\nchange: FP8 weights\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := bl(t, "--db", db, "import", dir); code != 0 || !strings.Contains(stderr, "import --reapply-manifests") {
		t.Errorf("a re-import does not point to --reapply-manifests: exit %d, %q", code, stderr)
	}
	out, stderr, code := bl(t, "--db", db, "import", "--reapply-manifests")
	want := `label "h100" → "FP8"; role other → candidate; change (none) → "FP8 weights"`
	if code != 0 || strings.Count(out, want) != 2 || !strings.HasPrefix(out, "run 1: ") || strings.Count(out, "\n") != 2 {
		t.Errorf("--reapply-manifests: exit %d, %q %q; want a line per run with %q", code, out, stderr, want)
	}
	if out, _, _ := bl(t, "--db", db, "runs"); !strings.Contains(out, "FP8") || strings.Contains(out, "h100") {
		t.Errorf("runs after reapply:\n%s", out)
	}
	if out, _, code := bl(t, "--db", db, "import", "--reapply-manifests", dir); code != 0 || !strings.Contains(out, "nothing changed") || strings.Count(out, "\n") != 1 {
		t.Errorf("reapplied twice: exit %d, %q", code, out)
	}
	if _, stderr, code := bl(t, "--db", db, "import", "--reapply-manifests", "--label", "x"); code != exitUsage || !strings.Contains(stderr, "--reapply-manifests") {
		t.Errorf("--reapply-manifests --label: exit %d, %q", code, stderr)
	}
	if _, _, code := bl(t, "--db", db, "import"); code != exitUsage {
		t.Errorf("import without a path: exit %d, want usage", code)
	}
}
