package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"benchlens/internal/pgtest"
)

// measuredNothing is a rate sweep whose server was down: `vllm bench serve` 0.25.1 wrote a
// result with every request failed (completed 0, all statistics 0.0, no per-request arrays)
// at each rate, within the same second. The two runs share their tool, model, date and
// counts: only their files tell them apart. planned pads the folder with other results past
// the 512 files above which an import plans its folder and reads it a window at a time.
func measuredNothing(t *testing.T, planned bool) string {
	t.Helper()
	failed, err := os.ReadFile(filepath.Join(fixtures, "08_bench_serve_all_requests_failed_v0.25.1.json"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"rate-inf.json": string(failed),
		"rate-4.json":   strings.Replace(string(failed), `"request_rate": "inf"`, `"request_rate": 4.0`, 1),
	}
	if files["rate-4.json"] == files["rate-inf.json"] {
		t.Fatal("the fixture no longer has request_rate inf")
	}
	if planned {
		for i := range 511 {
			files[fmt.Sprintf("night/%03d.json", i)] = fmt.Sprintf(`{"date": "20250101-%06d", "backend": "vllm", "model_id": "m", "num_prompts": 2, "completed": 2, "mean_ttft_ms": 10.0}`, i)
		}
	}
	dir := filepath.Join(t.TempDir(), "sweep")
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Two runs that measured nothing are two runs: each is stored, listed by runs and compared,
// and a re-import finds both, whether the folder is imported whole or planned, into a library
// file or a team library. They are identified by their result file's SHA-256, which the
// import took before it had hashed the file: both were keyed by an empty hash, and the second
// was reported "1 already in the library" and never stored.
func TestRunsThatMeasuredNothingAreEachStored(t *testing.T) {
	engines := []struct {
		name string
		db   func(t *testing.T) string
	}{
		{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "lib.db") }},
		{"postgres", func(t *testing.T) string { return pgtest.NewDatabase(t) }},
	}
	for _, planned := range []bool{false, true} {
		for _, engine := range engines {
			t.Run(fmt.Sprintf("%s/planned=%v", engine.name, planned), func(t *testing.T) {
				dir, db := measuredNothing(t, planned), engine.db(t)
				want := 2
				if planned {
					want = 513
				}
				out, stderr, code := bl(t, "--db", db, "import", dir)
				if code != 0 || strings.TrimSpace(out) != fmt.Sprintf("imported %d runs", want) {
					t.Fatalf("import: exit %d, %q %q", code, out, stderr)
				}
				out, stderr, code = bl(t, "--db", db, "runs", "--json")
				var runs []struct {
					ID          int64
					Model       string
					RequestRate any `json:"request_rate"`
					Failed      float64
				}
				if err := json.Unmarshal([]byte(out), &runs); code != 0 || err != nil {
					t.Fatalf("runs --json: exit %d, %v, %q", code, err, stderr)
				}
				var ids []string
				var rates []string
				for _, r := range runs {
					if r.Model == "facebook/opt-125m" {
						ids = append(ids, fmt.Sprint(r.ID))
						rates = append(rates, fmt.Sprint(r.RequestRate))
					}
				}
				if slices.Sort(rates); len(runs) != want || !slices.Equal(rates, []string{"4", "inf"}) {
					t.Fatalf("runs lists %d runs, the failed ones at rates %v: want %d, at 4 and inf", len(runs), rates, want)
				}
				out, stderr, code = bl(t, "--db", db, "compare", "--baseline", "ids:"+ids[0], "--candidate", "ids:"+ids[1])
				for _, line := range []string{"rate 4 req/s", "rate inf req/s", "baseline:  sweep (1 run: " + ids[0] + ")", "candidate: sweep (1 run: " + ids[1] + ")"} {
					if code != 0 || !strings.Contains(out, line) {
						t.Errorf("compare: exit %d, no %q in\n%s%s", code, line, out, stderr)
					}
				}
				out, stderr, code = bl(t, "--db", db, "import", dir)
				if code != 0 || !strings.Contains(out, fmt.Sprintf("imported 0 runs, %d already in the library", want)) {
					t.Errorf("re-import: exit %d, %q %q", code, out, stderr)
				}
			})
		}
	}
}
