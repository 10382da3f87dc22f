package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A result with figures no run can have measured (negative throughput, an absurd duration,
// more completed requests than sent, 1e300 s latencies, a date years ahead) imports as the
// file says, with a warning stored with the run, printed by show and flagged by compare's
// measurement check. Before, only negative latencies and the tool's own huge statistics
// were flagged.
func TestImplausibleFiguresFlagged(t *testing.T) {
	lab := t.TempDir()
	write := func(name, data string) {
		t.Helper()
		path := filepath.Join(lab, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("base/bundle.yaml", "label: base\nrole: baseline\n")
	write("base/r.json", `{"date": "20990101-000000", "backend": "vllm", "model_id": "m", "num_prompts": 2, "completed": 5, "failed": -1,
		"duration": -3.5, "request_throughput": -2.0, "output_throughput": 1e12,
		"ttfts": [0.02, 1e300], "itls": [[0.01], [0.011]], "output_lens": [2, 2], "input_lens": [8, 8]}`)
	write("cand/bundle.yaml", "label: cand\nrole: candidate\n")
	write("cand/r.json", `{"date": "20250101-000100", "backend": "vllm", "model_id": "m", "num_prompts": 2, "completed": 2,
		"duration": 1.5, "ttfts": [0.02, 0.03], "itls": [[0.01], [0.011]], "output_lens": [2, 2], "input_lens": [8, 8]}`)
	db := filepath.Join(t.TempDir(), "lib.db")
	if out, stderr, code := bl(t, "--db", db, "import", lab); code != 0 || !strings.Contains(out, "imported 2 runs") {
		t.Fatalf("import: exit %d\n%s%s", code, out, stderr)
	}
	out, _, _ := bl(t, "--db", db, "show", "1")
	for _, want := range []string{
		"warning: implausible values: failed is -1.00, a negative count",
		"warning: implausible values: completed 5.00 of num_prompts 2.00: more requests succeeded than were sent",
		"warning: implausible values: duration is -3.50 s",
		"warning: implausible values: request_throughput is -2.00 per second",
		"warning: implausible values: output_throughput is 1e+12 per second",
		"warning: implausible values: 1 requests with a TTFT beyond a day (highest 1e+300 s)",
		"warning: implausible values: dated 2099-01-01T00:00:00, in the future",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("show 1 lacks %q:\n%s", want, out)
		}
	}
	if out, _, _ := bl(t, "--db", db, "show", "2"); strings.Contains(out, "implausible") {
		t.Errorf("a plausible run is flagged:\n%s", out)
	}
	out, _, _ = bl(t, "--db", db, "compare", "--baseline", "base", "--candidate", "cand")
	if !strings.Contains(out, "implausible values") {
		t.Errorf("compare does not flag the measurement:\n%s", out)
	}
}
