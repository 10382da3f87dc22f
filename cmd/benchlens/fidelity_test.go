package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const fidelity = "../../library/testdata/fidelity"

// runs and show say what the library holds: llmperf's p50 as the median, GuideLLM's status
// categories, a sampled run's warning and whose statistics are used, the identifying signal.
func TestRunsAndShowTellTheirSources(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	for _, p := range []string{filepath.Join(fixtures, "03_01-ai-Yi-1-5-34B-Chat_550_150_summary.json"),
		filepath.Join(fidelity, "guidellm-sampled"), filepath.Join(fidelity, "guidellm-warmup")} {
		if out, stderr, code := bl(t, "--db", db, "import", p); code != 0 {
			t.Fatalf("import %s: exit %d, %q %q", p, code, out, stderr)
		}
	}
	out, _, _ := bl(t, "--db", db, "runs")
	lines := strings.Split(out, "\n")
	// Run 1 is llmperf's summary: its medians are its p50s (586.92 ms TTFT, 46.71 ms ITL).
	if !strings.Contains(lines[1], "586.92") || !strings.Contains(lines[1], "46.71") {
		t.Errorf("llmperf row shows no medians:\n%s", out)
	}
	// Run 2 is the sampled GuideLLM run: the tool's median, no *; run 3 recomputed, 1 incomplete.
	if strings.Contains(lines[2], "*") || !strings.Contains(lines[3], "1 incomplete") || !strings.Contains(lines[3], "*") {
		t.Errorf("guidellm rows:\n%s", out)
	}

	out, _, _ = bl(t, "--db", db, "show", "2")
	for _, want := range []string{"identified by", "benchmarks[] with type_", "a sample: 1 of 46", "warning: per-request records are a sample"} {
		if !strings.Contains(out, want) {
			t.Errorf("show 2 lacks %q:\n%s", want, out)
		}
	}
	out, _, _ = bl(t, "--db", db, "show", "3")
	for _, want := range []string{"4 ok of 5, not ok: 1 incomplete;", "warm-up (tool's)", "1 warm-up, 1 cool-down", "recomputed\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("show 3 lacks %q:\n%s", want, out)
		}
	}

	// The compare checklist and record say that run 2's records are a sample.
	out, _, _ = bl(t, "--db", db, "compare", "--baseline", "2", "--candidate", "3")
	if !strings.Contains(out, "measurement") || strings.Count(out, "baseline run 2: per-request records are a sample (1 of 46") != 2 {
		t.Errorf("compare does not say run 2 is a sample in its checklist and warnings:\n%s", out)
	}
	// Exports carry it too: the runs table says whose statistics, the records their warnings.
	if _, stderr, code := bl(t, "--db", db, "compare", "--baseline", "2", "--candidate", "3", "--save"); code != 0 {
		t.Fatalf("compare --save: %s", stderr)
	}
	dir := t.TempDir()
	for _, args := range [][]string{{"--csv", dir}, {"--md", filepath.Join(dir, "r.md")}} {
		if _, stderr, code := bl(t, append([]string{"--db", db, "export"}, args...)...); code != 0 {
			t.Fatalf("export %s: %s", args[0], stderr)
		}
	}
	runsCSV, _ := os.ReadFile(filepath.Join(dir, "runs.csv"))
	md, _ := os.ReadFile(filepath.Join(dir, "r.md"))
	if !strings.Contains(string(runsCSV), "tool (records a sample: 1 of 46)") || !strings.Contains(string(md), "a sample (1 of 46") {
		t.Errorf("exports do not say run 2 is a sample:\n%s\n%s", runsCSV, md)
	}
	out, _, _ = bl(t, "--db", db, "runs", "--json")
	var rows []struct {
		Incomplete *float64 `json:"incomplete"`
		TTFT       struct {
			Used string `json:"used"`
		} `json:"ttft"`
	}
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 3 {
		t.Fatalf("runs --json: %v", err)
	}
	if rows[0].TTFT.Used != "tool" || rows[1].TTFT.Used != "tool" || rows[2].TTFT.Used != "recomputed" ||
		rows[0].Incomplete != nil || rows[2].Incomplete == nil || *rows[2].Incomplete != 1 {
		t.Errorf("runs --json used / incomplete: %+v", rows)
	}
}
