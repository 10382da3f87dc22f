package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A run saved with its collect_env and no server log asked for the backend the dump's
// VLLM_ATTENTION_BACKEND names (METHOD.md rule 3): runs, show and compare all say so, with
// the dump's line, because all three ask model.TargetOf.
func TestTargetFromCollectEnv(t *testing.T) {
	dir := t.TempDir()
	env, err := os.ReadFile("../../importers/environment/testdata/vllm-collect-env_v0.23-dev_2026_4xH200_visible.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, arm := range []string{"baseline", "zero"} {
		results, _ := filepath.Glob("../../demo/samples/" + arm + "/run-1/vllm-*.json")
		if len(results) != 1 {
			t.Fatalf("demo %s: %v", arm, results)
		}
		data, err := os.ReadFile(results[0])
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, arm, "run-1", filepath.Base(results[0])), data)
		writeFile(t, filepath.Join(dir, arm, "run-1", "collect_env.txt"), env)
	}
	db := filepath.Join(dir, "lib.db")
	mustRun(t, "--db", db, "import", "--label", "base", filepath.Join(dir, "baseline"))
	mustRun(t, "--db", db, "import", "--label", "cand", filepath.Join(dir, "zero"))

	// the two arms' dumps are one file, stored once under the name it was first met by
	const from = "VLLM_ATTENTION_BACKEND=FLASHINFER from baseline/run-1/collect_env.txt line 119"
	var rows []struct {
		ID            int64   `json:"id"`
		TargetBackend *string `json:"target_backend"`
		TargetSource  string  `json:"target_source"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, "--db", db, "runs", "--json")), &rows); err != nil || len(rows) != 2 {
		t.Fatalf("runs --json: %v %+v", err, rows)
	}
	for _, r := range rows {
		if r.TargetBackend == nil || *r.TargetBackend != "FLASHINFER" || r.TargetSource != from {
			t.Errorf("runs --json, run %d: target %v from %q", r.ID, r.TargetBackend, r.TargetSource)
		}
	}
	if out := mustRun(t, "--db", db, "runs"); strings.Count(out, "- (asked FLASHINFER)") != 2 {
		t.Errorf("runs does not show the target asked for:\n%s", out)
	}
	if out := mustRun(t, "--db", db, "show", "1"); !strings.Contains(out, "FLASHINFER ("+from+")") {
		t.Errorf("show 1 lacks the target with its source:\n%s", out)
	}
	var rec struct {
		Path struct {
			TargetBackend struct{ Baseline, Candidate string }  `json:"target_backend"`
			TargetSource  *struct{ Baseline, Candidate string } `json:"target_source"`
		} `json:"path"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, "--db", db, "compare", "--baseline", "base", "--candidate", "cand", "--format", "json")), &rec); err != nil {
		t.Fatal(err)
	}
	if p := rec.Path; p.TargetBackend.Candidate != "FLASHINFER" || p.TargetSource == nil || p.TargetSource.Candidate != from {
		t.Errorf("compare: target %+v from %+v", p.TargetBackend, p.TargetSource)
	}
}
