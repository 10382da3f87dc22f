package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// compare --change-fields/--change-path/--change-what declares the change as bundle.yaml's
// change block would: the model the FP8 arm swaps in is no longer load drift, and --save
// keeps the declaration in the saved record; a path that is not one is a usage error.
func TestCompareDeclaresTheChange(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	if _, stderr, code := bl(t, "--db", db, "import", "--label-by", "model", filepath.Join(fixtures, "h100-fp16-vs-fp8")); code != 0 {
		t.Fatal(stderr)
	}
	plain, _, _ := bl(t, "--db", db, "compare", "--baseline", "FP16", "--candidate", "FP8", "--format", "json")
	if !strings.Contains(plain, `"load_drift"`) {
		t.Fatalf("without a declaration the model's swap is not load drift:\n%.2000s", plain)
	}
	args := []string{"--db", db, "compare", "--baseline", "FP16", "--candidate", "FP8", "--format", "json",
		"--change-fields", "model_name", "--change-path", "linear", "--change-what", "FP8 weights", "--save"}
	out, stderr, code := bl(t, args...)
	if code != 0 || !strings.Contains(stderr, "saved as comparison 1") {
		t.Fatalf("compare --change-*: exit %d, %s", code, stderr)
	}
	var rec struct {
		Change struct {
			What   string
			Fields []string
			Path   string
		}
		Causes []struct{ Code string }
	}
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Change.What != "FP8 weights" || strings.Join(rec.Change.Fields, ",") != "model_name" || rec.Change.Path != "linear" {
		t.Errorf("the record's change: %+v", rec.Change)
	}
	if strings.Contains(out, `"load_drift"`) {
		t.Errorf("the declared model swap is still load drift")
	}
	saved, _, _ := bl(t, "--db", db, "comparisons", "--json")
	if !strings.Contains(saved, "FP8 weights") {
		t.Errorf("the saved comparison lost the declaration:\n%.2000s", saved)
	}
	if _, stderr, code := bl(t, "--db", db, "compare", "--baseline", "FP16", "--candidate", "FP8", "--change-path", "matmul"); code != exitUsage || !strings.Contains(stderr, "--change-path") {
		t.Errorf("--change-path matmul: exit %d, %q", code, stderr)
	}
}
