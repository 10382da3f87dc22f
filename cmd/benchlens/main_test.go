package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"benchlens/analysis/compare"
	"benchlens/internal/goldenfile"
)

const fixtures = "../../testdata/fixtures/results"

func bl(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(&out, &errOut, args)
	return out.String(), errOut.String(), code
}

// golden compares got with testdata/name; -update rewrites it. A mismatch leaves a .got file.
func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name), []byte(got))
}

// runs --json over every real fixture is a contract: tests and scripts read it.
func TestRunsJSONGolden(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	out, stderr, code := bl(t, "--db", db, "import", fixtures)
	if code != 0 || !strings.Contains(out, "imported 13 runs") {
		t.Fatalf("import: exit %d, %q %q", code, out, stderr)
	}
	out, _, code = bl(t, "--db", db, "runs", "--json")
	if code != 0 {
		t.Fatalf("runs --json: exit %d", code)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 13 {
		t.Fatalf("runs --json is not an array of 13: %v", err)
	}
	for _, key := range []string{"id", "label", "role", "tool", "model", "num_prompts", "completed", "failed",
		"request_rate", "max_concurrency", "duration_s", "output_throughput", "ttft", "tpot", "itl", "e2el",
		"target_backend", "resolved_backend"} {
		if _, ok := rows[0][key]; !ok {
			t.Errorf("runs --json lacks %q", key)
		}
	}
	golden(t, "runs.golden.json", out)
}

func TestShowRun(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	if _, _, code := bl(t, "--db", db, "import", "--label", "fp16", "--role", "baseline",
		filepath.Join(fixtures, "h100-fp16-vs-fp8", "FP16-openai-10.0qps-itkns-1024-otkns-512-concurrency1-Llama-3.1-8B-Instruct-20250325-223157.json")); code != 0 {
		t.Fatal("import failed")
	}
	out, _, code := bl(t, "--db", db, "show", "1")
	if code != 0 {
		t.Fatalf("show: exit %d", code)
	}
	for _, want := range []string{"fp16 / baseline", "E (vLLM v0.6.5-v0.8.2)", "100 per-request records, 51100 gaps", "ttft", "mean 54.91"} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q:\n%s", want, out)
		}
	}
	out, _, code = bl(t, "--db", db, "show", "1", "--json")
	var d map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &d) != nil {
		t.Fatalf("show --json: exit %d, %s", code, out)
	}
	if d["requests"].(map[string]any)["count"].(float64) != 100 || len(d["files"].([]any)) != 1 {
		t.Errorf("show --json: requests %v files %v", d["requests"], d["files"])
	}
}

func TestExitStatuses(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"model_id": "m", "date": "20250101-000000", "backend": "vllm", "ttfts": [0.1`), 0o644)
	tests := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"--db", db, "nonsense"}, exitUsage, "unknown command"},
		{[]string{"--db", db, "import"}, exitUsage, "usage: benchlens import"},
		{[]string{"--db", db, "show", "x"}, exitUsage, "RUN must be a run id"},
		{[]string{"--db", db, "show", "99"}, exitRejected, "no run 99"},
		{[]string{"--db", db, "import", bad, filepath.Join(fixtures, "07_result-short-rate1.json")}, exitRejected, "bad.json: line 1, byte 77: unexpected end of input in array"},
		{[]string{"--db", db, "import", "/does/not/exist"}, exitRejected, "/does/not/exist"},
		{[]string{"--db"}, exitUsage, "--db needs a file"},
		{[]string{"--db=", "runs"}, exitUsage, "--db needs a file"},
		{[]string{"-db=" + db, "nonsense"}, exitUsage, "unknown command"},
		// Bug: a setting's value out of range (or an unknown key) exited 1, as a failure.
		{[]string{"--db", db, "compare", "--baseline", "a", "--candidate", "b", "--alpha", "abc"}, exitUsage, `alpha="abc": not a number`},
		{[]string{"--db", db, "compare", "--baseline", "a", "--candidate", "b", "--bootstrap", "0"}, exitUsage, "bootstrap is between"},
		{[]string{"--db", db, "settings", "alpha=2"}, exitUsage, "alpha must be between 0 and 1"},
		{[]string{"--db", db, "settings", "nope=1"}, exitUsage, `unknown setting "nope"`},
	}
	for _, tt := range tests {
		_, stderr, code := bl(t, tt.args...)
		if code != tt.code || !strings.Contains(stderr, tt.stderr) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tt.args, code, stderr, tt.code, tt.stderr)
		}
	}
	// The good file of the mixed batch was imported.
	out, _, _ := bl(t, "--db", db, "runs")
	if !strings.Contains(out, "google/gemma-4-31B-it") {
		t.Errorf("good file not imported:\n%s", out)
	}
}

func TestDemoAndEnvironmentLibrary(t *testing.T) {
	db := filepath.Join(t.TempDir(), "env.db")
	t.Setenv("BENCHLENS_DB", db)
	out, _, code := bl(t, "demo")
	if code != 0 || !strings.Contains(out, "imported 82 runs") {
		t.Fatalf("demo: exit %d %q", code, out)
	}
	if _, err := os.Stat(db); err != nil {
		t.Errorf("BENCHLENS_DB not used: %v", err)
	}
	out, _, _ = bl(t, "runs")
	if !strings.Contains(out, "few-repeats") || !strings.Contains(out, "baseline") {
		t.Errorf("runs after demo:\n%s", out)
	}
}

// compare's text and YAML outputs are contracts: golden files over the demo arms.
func TestCompareGolden(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	if _, _, code := bl(t, "--db", db, "demo"); code != 0 {
		t.Fatal("demo failed")
	}
	for _, tt := range []struct{ base, cand, format, golden string }{
		{"baseline", "established", "text", "compare_established.golden.txt"},
		{"baseline", "fallback", "text", "compare_fallback.golden.txt"},
		{"baseline", "offset", "yaml", "compare_offset.golden.yaml"},
		{"sweep-baseline", "sweep-candidate", "text", "compare_sweep.golden.txt"},
		{"sweep-baseline", "sweep-candidate", "json", "compare_sweep.golden.json"},
	} {
		out, stderr, code := bl(t, "--db", db, "compare", "--baseline", tt.base, "--candidate", tt.cand, "--format", tt.format)
		if code != 0 {
			t.Fatalf("compare %s: exit %d %s", tt.cand, code, stderr)
		}
		golden(t, tt.golden, out)
	}
	_, stderr, code := bl(t, "--db", db, "compare", "--baseline", "baseline", "--candidate", "nope")
	if code != exitRejected || !strings.Contains(stderr, `no run has the label "nope"`) {
		t.Errorf("unknown label: exit %d %q", code, stderr)
	}
	_, stderr, code = bl(t, "--db", db, "compare", "--baseline", "baseline", "--candidate", "established", "--format", "json", "--save")
	if code != 0 || !strings.Contains(stderr, "saved as comparison 1") {
		t.Errorf("save: exit %d %q", code, stderr)
	}
	out, _, _ := bl(t, "--db", db, "comparisons", "--json")
	var list []map[string]any
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 1 || list[0]["status"] != "established" {
		t.Errorf("comparisons --json: %v %s", err, out)
	}
}

// export writes every format from saved comparisons; nothing saved is a clear error.
func TestExport(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "lib.db")
	bl(t, "--db", db, "demo")
	if _, stderr, code := bl(t, "--db", db, "export", "--md", filepath.Join(dir, "x.md")); code != exitRejected || !strings.Contains(stderr, "no saved comparison") {
		t.Errorf("export with nothing saved: exit %d %q", code, stderr)
	}
	for _, cand := range []string{"established", "offset"} {
		if _, stderr, code := bl(t, "--db", db, "compare", "--baseline", "baseline", "--candidate", cand, "--save", "--format", "json"); code != 0 {
			t.Fatalf("compare --save: %s", stderr)
		}
	}
	outputs := map[string]string{
		"--xlsx": filepath.Join(dir, "r.xlsx"), "--yaml": filepath.Join(dir, "r.yaml"), "--md": filepath.Join(dir, "r.md"),
		"--csv": filepath.Join(dir, "csv"), "--png": filepath.Join(dir, "png"),
	}
	for flag, dest := range outputs {
		if _, stderr, code := bl(t, "--db", db, "export", flag, dest); code != 0 {
			t.Errorf("export %s: exit %d %s", flag, code, stderr)
		}
	}
	// Each saved record names the build that judged it; each export the build that wrote it.
	y, _ := os.ReadFile(outputs["--yaml"])
	if n := strings.Count(string(y), "\n  benchlens:\n    version: "); n != 2 || !strings.Contains(string(y), "\n  exported_by:\n") {
		t.Errorf("YAML export: %d benchlens blocks, exported_by present %v", n, strings.Contains(string(y), "exported_by"))
	}
	md, _ := os.ReadFile(outputs["--md"])
	if !strings.Contains(string(md), "established") || !strings.Contains(string(md), "offset_by_overhead") {
		t.Errorf("markdown summary lacks the verdicts:\n%s", md)
	}
	for _, f := range []string{"csv/verdicts.csv", "csv/stages.csv", "png/comparison-1-ttft_cdf.png", "png/comparison-2-bucket_deltas.svg"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
	if _, stderr, code := bl(t, "--db", db, "export", "--md", filepath.Join(dir, "one.md"), "--comparison", "2"); code != 0 {
		t.Errorf("export --comparison: %s", stderr)
	}
	if one, _ := os.ReadFile(filepath.Join(dir, "one.md")); strings.Contains(string(one), "vs established") {
		t.Error("--comparison 2 exported comparison 1 too")
	}
}

// export never writes over the library (its file, a link to it, its -wal and -shm) and
// replaces another existing file only with --force; a refused export changes nothing.
func TestExportRefusesToDestroy(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "e.db")
	bl(t, "--db", db, "demo")
	if _, stderr, code := bl(t, "--db", db, "compare", "--baseline", "baseline", "--candidate", "offset", "--save", "--format", "json"); code != 0 {
		t.Fatalf("compare --save: %s", stderr)
	}
	if err := os.Symlink(db, filepath.Join(dir, "link.db")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	existing := filepath.Join(dir, "notes.md")
	if err := os.WriteFile(existing, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ flag, dest, want string }{
		{"--xlsx", db, "the library itself"},
		{"--yaml", db, "the library itself"},
		{"--md", db + "-wal", "the library itself"},
		{"--md", db + "-shm", "the library itself"},
		{"--xlsx", filepath.Join(dir, "link.db"), "the library itself"},
		{"--xlsx", filepath.Join(dir, "sub", "..", "e.db"), "the library itself"},
		{"--md", existing, "add --force"},
		{"--md", filepath.Join(dir, "sub"), "is a folder"},
	} {
		for _, force := range []bool{false, true} {
			args := []string{"--db", db, "export", c.flag, c.dest}
			if force {
				args = append(args, "--force")
			}
			if c.want == "add --force" && force {
				continue
			}
			stdout, stderr, code := bl(t, args...)
			if code != exitRejected || !strings.Contains(stderr, c.want) || stdout != "" {
				t.Errorf("export %s %s (force %v): exit %d, %q %q; want a refusal saying %q", c.flag, c.dest, force, code, stdout, stderr, c.want)
			}
		}
	}
	if b, _ := os.ReadFile(existing); string(b) != "mine" {
		t.Errorf("existing file overwritten without --force: %q", b)
	}
	if out, stderr, code := bl(t, "--db", db, "check"); code != 0 {
		t.Fatalf("library damaged by a refused export: %s %s", out, stderr)
	}
	if out, _, _ := bl(t, "--db", db, "comparisons"); !strings.Contains(out, "offset") {
		t.Errorf("comparison lost: %s", out)
	}
	if _, stderr, code := bl(t, "--db", db, "export", "--md", existing, "--force"); code != 0 {
		t.Errorf("export --force over a file: %s", stderr)
	}
	if b, _ := os.ReadFile(existing); string(b) == "mine" {
		t.Error("--force did not replace the file")
	}
	// A folder export checks every file before writing any.
	csvDir := filepath.Join(dir, "csv")
	if _, stderr, code := bl(t, "--db", db, "export", "--csv", csvDir); code != 0 {
		t.Fatal(stderr)
	}
	if _, stderr, code := bl(t, "--db", db, "export", "--csv", csvDir); code != exitRejected || !strings.Contains(stderr, "add --force") {
		t.Errorf("second csv export into the same folder: exit %d %s", code, stderr)
	}
	if _, stderr, code := bl(t, "--db", db, "export", "--csv", csvDir, "--force"); code != 0 {
		t.Errorf("csv export --force: %s", stderr)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".benchlens-export-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// The analysis settings live in the library: `settings` sets them, `compare` uses them
// (stored with a saved verdict), and a flag overrides one for one call without storing it.
func TestSettingsInTheLibrary(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	bl(t, "--db", db, "demo")
	settingsOf := func(args ...string) compare.Settings {
		t.Helper()
		out, stderr, code := bl(t, append([]string{"--db", db, "compare", "--baseline", "baseline", "--candidate", "few-repeats", "--format", "json"}, args...)...)
		if code != 0 {
			t.Fatalf("compare %v: %s", args, stderr)
		}
		var rec compare.Record
		if err := json.Unmarshal([]byte(out), &rec); err != nil {
			t.Fatal(err)
		}
		return rec.Settings
	}
	if s := settingsOf(); s.Alpha != 0.05 || s.MinRepeats != 5 {
		t.Errorf("defaults: %+v", s)
	}
	out, stderr, code := bl(t, "--db", db, "settings", "alpha=0.01", "min_repeats=2", "bucket_edges=600, 1200")
	if code != 0 || !strings.Contains(out, "(library)") {
		t.Fatalf("settings: %d %s %s", code, out, stderr)
	}
	if s := settingsOf(); s.Alpha != 0.01 || s.MinRepeats != 2 || !slices.Equal(s.BucketEdges, []int{600, 1200}) {
		t.Errorf("compare ignores the library's settings: %+v", s)
	}
	if s := settingsOf("--alpha", "0.2", "--noise-floor", "0.03"); s.Alpha != 0.2 || s.NoiseFloor != 0.03 || s.MinRepeats != 2 {
		t.Errorf("override: %+v", s)
	}
	if s := settingsOf(); s.Alpha != 0.01 {
		t.Errorf("an override was stored: %+v", s)
	}
	for _, bad := range [][]string{{"settings", "alpha=2"}, {"settings", "nope=1"}, {"settings", "bucket_edges=9,3"}, {"compare", "--baseline", "baseline", "--candidate", "zero", "--min-repeats", "x"}} {
		if _, stderr, code := bl(t, append([]string{"--db", db}, bad...)...); code == 0 || stderr == "" {
			t.Errorf("%v accepted", bad)
		}
	}
	if _, _, code := bl(t, "--db", db, "settings", "--reset"); code != 0 {
		t.Fatal("reset failed")
	}
	if s := settingsOf(); s.Alpha != 0.05 || s.MinRepeats != 5 || s.BucketEdges != nil {
		t.Errorf("after --reset: %+v", s)
	}
}

// The README's command block is the usage text, word for word.
func TestReadmeShowsTheUsage(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const head = "## Command line\n\n```\n"
	i := strings.Index(string(readme), head)
	if i < 0 {
		t.Fatal("README has no command block")
	}
	block := string(readme[i+len(head):])
	block = block[:strings.Index(block, "```")]
	if strings.TrimSpace(block) != strings.TrimSpace(usage) {
		t.Errorf("README's command block differs from the usage text:\n%s\nwant:\n%s", block, usage)
	}
}
