package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShowLeavesOutTheModelLine: show printed no model line for a run without a model, as if
// the field did not exist; it prints "-".
func TestShowLeavesOutTheModelLine(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(fixtures, "07_result-short-rate1.json"))
	if err != nil {
		t.Fatal(err)
	}
	var result map[string]any
	if err := json.Unmarshal(data, &result); err != nil {
		t.Fatal(err)
	}
	delete(result, "model_id")
	data, _ = json.Marshal(result)
	file := filepath.Join(t.TempDir(), "nomodel.json")
	os.WriteFile(file, data, 0o644)
	db := filepath.Join(t.TempDir(), "lib.db")
	if _, stderr, code := bl(t, "--db", db, "import", file); code != 0 {
		t.Fatalf("import: exit %d %s", code, stderr)
	}
	out, _, code := bl(t, "--db", db, "show", "1")
	if code != 0 || !strings.Contains(out, "\nmodel  ") {
		t.Errorf("show: exit %d, no model line:\n%s", code, out)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "model ") && strings.TrimSpace(strings.TrimPrefix(l, "model")) != "-" {
			t.Errorf("model line %q, want -", l)
		}
	}
}
