package library

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"benchlens/demo"
	"benchlens/store"
)

// TestMain doubles as the child process the crash tests kill: with BENCHLENS_CHILD_DB set it
// imports BENCHLENS_CHILD_PATHS into that library and exits.
func TestMain(m *testing.M) {
	if db := os.Getenv("BENCHLENS_CHILD_DB"); db != "" {
		st, err := store.Open(db)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		rep := Import(st, filepath.SplitList(os.Getenv("BENCHLENS_CHILD_PATHS")), Options{})
		st.Close()
		if os.Getenv("BENCHLENS_CHILD_VERBOSE") != "" {
			fmt.Fprintf(os.Stderr, "child: added %d existing %d errors %v\n", len(rep.Added), len(rep.Existing), rep.Errors)
		}
		if len(rep.Errors) > 0 {
			fmt.Fprintln(os.Stderr, rep.Errors)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func child(db string, paths ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "BENCHLENS_CHILD_DB="+db, "BENCHLENS_CHILD_PATHS="+strings.Join(paths, string(os.PathListSeparator)))
	cmd.Stderr = os.Stderr
	return cmd
}

// crashBundle writes the demo bundles plus a few larger vLLM results (4,000 requests each).
func crashBundle(t *testing.T) (string, int) {
	dir := filepath.Join(t.TempDir(), "bundle")
	if err := demo.Generate(filepath.Join(dir, "demo")); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	const big, reqs = 8, 4000
	for i := range big {
		res := map[string]any{"date": fmt.Sprintf("20250101-00000%d", i), "backend": "vllm", "model_id": "m",
			"num_prompts": reqs, "completed": reqs, "mean_ttft_ms": 10.0}
		in, out, ttft, itls, errs := make([]int, reqs), make([]int, reqs), make([]float64, reqs), make([][]float64, reqs), make([]string, reqs)
		for r := range reqs {
			in[r], out[r], ttft[r] = 100+r%50, 128, 0.01+rng.Float64()/100
			itls[r] = make([]float64, 127)
			for g := range itls[r] {
				itls[r][g] = 0.01 + rng.Float64()/1000
			}
		}
		res["input_lens"], res["output_lens"], res["ttfts"], res["itls"], res["errors"] = in, out, ttft, itls, errs
		data, _ := json.Marshal(res)
		p := filepath.Join(dir, "big", fmt.Sprintf("run-%d", i), "result.json")
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, data, 0o644)
	}
	return dir, 37 + big
}

// assertConsistent: SQLite's integrity holds, and every stored run is whole: its result file
// is linked and it has as many requests as its file reported prompts.
func assertConsistent(t *testing.T, db string) int {
	t.Helper()
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rep, err := st.Check()
	if err != nil || len(rep.Integrity) > 0 || len(rep.ForeignKeys) > 0 || len(rep.RunsNoResult) > 0 {
		t.Fatalf("after a crash: %v %v", rep, err)
	}
	runs, err := st.Runs()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		var n int
		if err := st.DB().QueryRow(`SELECT count(*) FROM requests WHERE run_id = ?`, r.ID).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if float64(n) != r.NumPrompts.F() {
			t.Fatalf("run %d is half stored: %d of %v requests", r.ID, n, r.NumPrompts.F())
		}
	}
	return len(runs)
}

// Killing the importer (kill -9) at random points never leaves a broken library or half a
// run, and importing again completes.
func TestKilledImportLeavesNoHalfRun(t *testing.T) {
	if testing.Short() {
		t.Skip("kills child processes; skipped with -short")
	}
	bundle, want := crashBundle(t)
	// How long a whole import takes, to kill inside it.
	start := time.Now()
	if err := child(filepath.Join(t.TempDir(), "timing.db"), bundle).Run(); err != nil {
		t.Fatal(err)
	}
	full := time.Since(start)
	db := filepath.Join(t.TempDir(), "lib.db")
	rng := rand.New(rand.NewPCG(7, 8))
	for i := range 12 {
		cmd := child(db, bundle)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.Int64N(int64(full))))
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		got := assertConsistent(t, db)
		t.Logf("kill %d: %d runs stored", i+1, got)
	}
	if err := child(db, bundle).Run(); err != nil {
		t.Fatalf("the import after the crashes failed: %v", err)
	}
	if got := assertConsistent(t, db); got != want {
		t.Errorf("%d runs after the final import, want %d", got, want)
	}
}

// Two processes importing into one library at once both finish, and the library is whole.
func TestTwoProcessesShareALibrary(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes; skipped with -short")
	}
	bundle, want := crashBundle(t)
	db := filepath.Join(t.TempDir(), "lib.db")
	a, b := child(db, filepath.Join(bundle, "demo")), child(db, filepath.Join(bundle, "big"), filepath.Join(bundle, "demo", "offset"))
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	if err := a.Wait(); err != nil {
		t.Errorf("first process: %v", err)
	}
	if err := b.Wait(); err != nil {
		t.Errorf("second process: %v", err)
	}
	if got := assertConsistent(t, db); got != want {
		t.Errorf("%d runs, want %d", got, want)
	}
}
