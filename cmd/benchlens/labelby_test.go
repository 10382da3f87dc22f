package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// import --label-by model makes the real H100 folder the two arms the lab meant, FP16 and
// FP8, each run listed with its precision; a --label-by it does not know, or beside --label,
// is a usage error that imports nothing.
func TestImportLabelBy(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	dir := filepath.Join(fixtures, "h100-fp16-vs-fp8")
	for _, args := range [][]string{{"--label-by", "dir"}, {"--label", "x", "--label-by", "model"}} {
		if _, stderr, code := bl(t, append(append([]string{"--db", db, "import"}, args...), dir)...); code != exitUsage || !strings.Contains(stderr, "--label-by") {
			t.Errorf("import %v: exit %d, %q", args, code, stderr)
		}
	}
	if out, stderr, code := bl(t, "--db", db, "import", "--label-by", "model", dir); code != 0 || !strings.Contains(out, "imported 4 runs") {
		t.Fatalf("import --label-by model: exit %d, %q %q", code, out, stderr)
	}
	out, _, _ := bl(t, "--db", db, "runs", "--json")
	var rows []struct{ Label, Precision string }
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, r.Label+"/"+r.Precision)
	}
	if strings.Join(got, ",") != "FP16/FP16,FP16/FP16,FP8/FP8,FP8/FP8" {
		t.Errorf("arms and precisions: %v", got)
	}
	if out, _, _ := bl(t, "--db", db, "compare", "--baseline", "FP16", "--candidate", "FP8"); !strings.Contains(out, "verdict:") {
		t.Errorf("compare FP16 with FP8 without a relabel:\n%s", out)
	}
}
