package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A real lab folder (testdata/labruns/tpu-attempts: vLLM on a TPU v6e-4, two dated attempts
// whose server never came up, beside two that ran) imported as the lab committed it. The
// failed attempts' server.log files sit in folders of no run: they are attached to no run, each
// with its line, where before every run carried both (one saying "server failed: Failed to infer
// device type"). The vllm bench serve consoles beside the results are read as the client's:
// no run is given a target backend (it was "asked FLASH_ATTN", vLLM's CUDA default, on a TPU),
// and the client's "Server disconnected" is no server failure.
func TestFailedAttemptsAndClientConsolesClaimNothing(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lab.db")
	out, errOut, code := bl(t, "--db", db, "import", filepath.Join("testdata", "labruns", "tpu-attempts"))
	if code != 0 || !strings.Contains(out, "imported 5 runs") {
		t.Fatalf("import: exit %d\n%s%s", code, out, errOut)
	}
	for _, attempt := range []string{"20260426-190650/server.log", "20260426-191618/server.log"} {
		if !strings.Contains(errOut, attempt+": not stored: this log file lies in a folder of no run, beside the runs of 2 folders") {
			t.Errorf("no line for %s:\n%s", attempt, errOut)
		}
	}
	out, _, _ = bl(t, "--db", db, "runs", "--json")
	var runs []struct {
		ID            int64   `json:"id"`
		TargetBackend *string `json:"target_backend"`
	}
	if err := json.Unmarshal([]byte(out), &runs); err != nil || len(runs) != 5 {
		t.Fatalf("runs --json: %v, %d runs\n%s", err, len(runs), out)
	}
	for _, r := range runs {
		if r.TargetBackend != nil && *r.TargetBackend != "" {
			t.Errorf("run %d has the target backend %q from a client's console", r.ID, *r.TargetBackend)
		}
		show, _, _ := bl(t, "--db", db, "show", itoa(r.ID))
		for _, never := range []string{"server failed", "target backend", "FLASH_ATTN", "20260426-190650", "20260426-191618"} {
			if strings.Contains(show, never) {
				t.Errorf("run %d shows %q:\n%s", r.ID, never, show)
			}
		}
		if !strings.Contains(show, "vllm benchmark client console") || !strings.Contains(show, "nothing in it is the server's") {
			t.Errorf("run %d does not say its logs are the client's:\n%s", r.ID, show)
		}
	}
}

// One attempt that ran beside one whose server never came up: the runs are one group, so the
// failed attempt's server.log climbs to them, but a server that never came up served no run: it
// is attached to none, with its line naming the line that says so.
func TestAFailedAttemptsLogServesNoRun(t *testing.T) {
	src := filepath.Join("testdata", "labruns", "tpu-attempts")
	dir := filepath.Join(t.TempDir(), "lab")
	for _, f := range []string{"20260426-191618/server.log", "20260426-195024-gemma4-tpu/result-short-rate1.json",
		"20260426-195024-gemma4-tpu/bench-short-rate1.log"} {
		data, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db := filepath.Join(t.TempDir(), "lab.db")
	out, errOut, code := bl(t, "--db", db, "import", dir)
	if code != 0 || !strings.Contains(out, "imported 1 run") ||
		!strings.Contains(errOut, "20260426-191618/server.log: not stored: a server log from a folder of no run whose server never came up (line 25)") {
		t.Fatalf("import: exit %d\n%s%s", code, out, errOut)
	}
	show, _, _ := bl(t, "--db", db, "show", "1")
	if strings.Contains(show, "server failed") || strings.Contains(show, "20260426-191618") {
		t.Errorf("the run shows the failed attempt's log:\n%s", show)
	}
}
