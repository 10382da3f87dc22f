package library

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"benchlens/demo"
	"benchlens/internal/pgtest"
	"benchlens/model"
	"benchlens/store"
)

// TestMain doubles as the child process the crash tests kill: with BENCHLENS_CHILD_DB set it
// imports BENCHLENS_CHILD_PATHS into that library (stopping cleanly on SIGINT or SIGTERM, as
// the command line does) and exits; with BENCHLENS_CHILD_OPEN_ONLY it only opens the library.
func TestMain(m *testing.M) {
	if db := os.Getenv("BENCHLENS_CHILD_DB"); db != "" {
		st, err := store.Open(db)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		if os.Getenv("BENCHLENS_CHILD_OPEN_ONLY") != "" {
			st.Close()
			os.Exit(0)
		}
		stop, release := Interrupts()
		opt := Options{Stop: stop}
		if n, err := strconv.Atoi(os.Getenv("BENCHLENS_CHILD_DIE_AFTER")); err == nil {
			// Dies as a kill -9 would, at a known point: no deferred work, no clean-up.
			opt.Progress = func(done, total int, name string) {
				if done == n {
					os.Exit(9)
				}
			}
		}
		rep := Import(st, filepath.SplitList(os.Getenv("BENCHLENS_CHILD_PATHS")), opt)
		release()
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
	pgtest.Main(m)
}

// eachEngine runs a test on a new library location in each engine: a file, a database.
func eachEngine(t *testing.T, test func(t *testing.T, db string)) {
	t.Run("sqlite", func(t *testing.T) { test(t, filepath.Join(t.TempDir(), "lib.db")) })
	t.Run("postgres", func(t *testing.T) { test(t, pgtest.NewDatabase(t)) })
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
	return dir, 82 + big
}

// assertConsistent: the engine's integrity holds, and every stored run is whole: its result file
// is linked and it has as many requests as its file reported prompts.
func assertConsistent(t *testing.T, db string) int {
	t.Helper()
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rep, err := st.Check()
	if err != nil || len(rep.Integrity) > 0 || len(rep.ForeignKeys) > 0 || len(rep.RunsNoResult) > 0 || len(rep.RunsUnread) > 0 {
		t.Fatalf("after a crash: %v %v", rep, err)
	}
	runs, err := st.Runs()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		var n int
		if err := st.DB().QueryRow(fmt.Sprint(`SELECT count(*) FROM requests WHERE run_id = `, r.ID)).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if float64(n) != r.NumPrompts.F() {
			t.Fatalf("run %d is half stored: %d of %v requests", r.ID, n, r.NumPrompts.F())
		}
	}
	return len(runs)
}

// An importer killed between runs leaves every stored run with what its attachments say:
// the readings are part of each run's transaction. Before, they were stored once the whole
// import ended, so the runs stored before a kill -9 listed their server logs without any of
// their evidence, and check said ok.
func TestKilledImportKeepsEvidence(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes; skipped with -short")
	}
	bundle := filepath.Join(t.TempDir(), "demo")
	if err := demo.Generate(bundle); err != nil {
		t.Fatal(err)
	}
	eachEngine(t, func(t *testing.T, db string) {
		cmd := child(db, bundle)
		cmd.Env = append(cmd.Env, "BENCHLENS_CHILD_DIE_AFTER=20")
		if err := cmd.Run(); err == nil {
			t.Fatal("the child did not die mid-import")
		}
		st, err := store.Open(db)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		runs, err := st.Runs()
		if err != nil || len(runs) < 15 {
			t.Fatalf("%d runs stored before the kill (%v)", len(runs), err)
		}
		for _, r := range runs {
			files, err := st.RunFiles(r.ID)
			if err != nil {
				t.Fatal(err)
			}
			evs, err := st.RunEvidence(r.ID)
			if err != nil {
				t.Fatal(err)
			}
			logs := 0
			for _, f := range files {
				if f.Kind == model.KindLog {
					logs++
				}
			}
			read := 0
			for _, ev := range evs {
				if ev.Log != nil {
					read++
				}
			}
			if read != logs {
				t.Errorf("run %d lists %d server logs, %d read", r.ID, logs, read)
			}
		}
		if rep, err := st.Check(); err != nil || len(rep.RunsUnread) > 0 {
			t.Errorf("check: %v %v", rep, err)
		}
	})
}

// importTime is how long a whole import of bundle takes, to signal the importer inside it.
func importTime(t *testing.T, bundle string) time.Duration {
	t.Helper()
	start := time.Now()
	if err := child(filepath.Join(t.TempDir(), "timing.db"), bundle).Run(); err != nil {
		t.Fatal(err)
	}
	return time.Since(start)
}

// Killing the importer (kill -9) at random points never leaves a broken library or half a
// run, and importing again completes.
func TestKilledImportLeavesNoHalfRun(t *testing.T) {
	if testing.Short() {
		t.Skip("kills child processes; skipped with -short")
	}
	bundle, want := crashBundle(t)
	full := importTime(t, bundle)
	eachEngine(t, func(t *testing.T, db string) {
		rng := rand.New(rand.NewPCG(7, 8))
		kills := 12
		if store.IsPostgres(db) {
			kills = 6 // enough to kill mid-COPY and mid-chunk; keeps make test short
		}
		for i := range kills {
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
		// The import after the kills removed what they left (their claims died with them).
		assertHealthy(t, db)
	})
}

// assertHealthy: check finds nothing at all, orphans and files missing bytes included.
func assertHealthy(t *testing.T, db string) {
	t.Helper()
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if rep, err := st.Check(); err != nil || !rep.OK() {
		t.Fatalf("check: %v %v", rep, err)
	}
}

// SIGTERM or SIGINT mid-import: the importer finishes the run it is storing, removes the
// files it stored ahead for the rest and exits non-zero, leaving a library check calls
// healthy; a kill -9 leaves orphans that check reports and Repair removes.
func TestSignalledImportCleansUp(t *testing.T) {
	if testing.Short() {
		t.Skip("kills child processes; skipped with -short")
	}
	bundle, _ := crashBundle(t)
	full := importTime(t, bundle)
	rng := rand.New(rand.NewPCG(9, 10))
	for i, sig := range []os.Signal{syscall.SIGTERM, os.Interrupt, syscall.SIGTERM, syscall.SIGKILL} {
		db := filepath.Join(t.TempDir(), "lib.db")
		cmd := child(db, bundle)
		cmd.Stderr = nil
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		at := time.Duration(rng.Int64N(int64(full)))
		time.Sleep(at)
		cmd.Process.Signal(sig)
		err := cmd.Wait()
		assertConsistent(t, db)
		st, oerr := store.Open(db)
		if oerr != nil {
			t.Fatal(oerr)
		}
		rep, cerr := st.Check()
		if cerr != nil {
			t.Fatal(cerr)
		}
		t.Logf("%v after %v: exit %v, %d orphans", sig, at.Round(time.Millisecond), err, len(rep.OrphanFiles))
		if sig != syscall.SIGKILL && !rep.OK() {
			t.Errorf("%v after %v (exit %v): check %v", sig, at, err, rep)
		}
		if n, err := st.Repair(); err != nil || n != len(rep.OrphanFiles) {
			t.Errorf("kill %d: repair removed %d of %d orphans (%v)", i, n, len(rep.OrphanFiles), err)
		}
		st.Close()
		assertHealthy(t, db)
	}
}

// Two imports sharing a file, started 0.3 s apart (the second holds a run already stored, so
// its clean-up finds the shared file unused): the first import's run keeps the file's bytes.
// Before claims, the clean-up deleted the file stored ahead and the run was saved with a
// 0-chunk file that check called healthy.
func TestConcurrentImportsShareAFile(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes; skipped with -short")
	}
	bundle, _ := crashBundle(t)
	log := "INFO 03-25 22:31:57 selector.py:135] Using Flash Attention backend.\n" + strings.Repeat("INFO 03-25 22:31:58 metrics.py:455] Avg prompt throughput: 0.0 tokens/s\n", 2000)
	dir := t.TempDir()
	write := func(p, content string) {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	big, err := os.ReadFile(filepath.Join(bundle, "big", "run-0", "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	small := `{"date": "20250101-000001", "backend": "vllm", "model_id": "m", "num_prompts": 2, "completed": 2, "mean_ttft_ms": 10.0}`
	write(filepath.Join(dir, "b", "a-server.log"), log)
	write(filepath.Join(dir, "b", "result.json"), string(big))
	write(filepath.Join(dir, "a", "a-server.log"), log)
	write(filepath.Join(dir, "a", "result.json"), small)
	write(filepath.Join(dir, "a-alone", "result.json"), small)
	for i := range 4 {
		db := filepath.Join(t.TempDir(), "lib.db")
		if err := child(db, filepath.Join(dir, "a-alone")).Run(); err != nil {
			t.Fatal(err)
		}
		b := child(db, filepath.Join(dir, "b"))
		if err := b.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(100+100*i) * time.Millisecond)
		if err := child(db, filepath.Join(dir, "a")).Run(); err != nil {
			t.Errorf("import A: %v", err)
		}
		if err := b.Wait(); err != nil {
			t.Errorf("import B: %v", err)
		}
		assertHealthy(t, db)
		st, err := store.Open(db)
		if err != nil {
			t.Fatal(err)
		}
		runs, _ := st.Runs()
		found := false
		for _, r := range runs {
			files, _ := st.RunFiles(r.ID)
			for _, f := range files {
				if strings.HasSuffix(f.Name, "a-server.log") && r.NumPrompts.F() == 4000 {
					got, err := st.FileContent(f.ID)
					found = err == nil && string(got) == log
				}
			}
		}
		st.Close()
		if !found {
			t.Errorf("round %d: B's run lost its server log's bytes", i)
		}
	}
}

// Four processes opening an old-schema library at once all succeed, each keeping a private
// backup (the names no longer clash).
func TestOldLibraryOpenedByFourProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes; skipped with -short")
	}
	db := filepath.Join(t.TempDir(), "lib.db")
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	if rep := LoadDemo(st); len(rep.Errors) > 0 {
		t.Fatal(rep.Errors)
	}
	// Schemas 15 to 5 undone: no measured statistics nor listings, and each run holds its
	// manifest again.
	for _, q := range []string{`ALTER TABLE runs DROP COLUMN point`, `ALTER TABLE runs DROP COLUMN measured`, `ALTER TABLE runs DROP COLUMN listing`, `DROP INDEX runs_label_role`, `UPDATE runs SET manifest = (SELECT content FROM manifests m WHERE m.id = runs.manifest_id)`,
		`DROP INDEX runs_manifest`, `ALTER TABLE runs DROP COLUMN manifest_id`, `DROP TABLE manifests`, `DROP INDEX annotations_version`, `ALTER TABLE annotations DROP COLUMN replaces`, `ALTER TABLE annotations DROP COLUMN revision`,
		`DROP TABLE settings`, `DROP TABLE file_claims`, `DROP INDEX runs_source`, `PRAGMA user_version = 4`} {
		if _, err := st.DB().Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	var cmds []*exec.Cmd
	for range 4 {
		cmd := child(db)
		cmd.Env = append(cmd.Env, "BENCHLENS_CHILD_OPEN_ONLY=1")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
		defer func() {
			if stderr.Len() > 0 {
				t.Logf("child: %s", stderr.String())
			}
		}()
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("process %d: %v", i+1, err)
		}
	}
	backups, _ := filepath.Glob(db + ".schema4-*.bak")
	if len(backups) == 0 {
		t.Error("no backup before the migration")
	}
	for _, b := range backups {
		if fi, err := os.Stat(b); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("backup %s: %v %v", b, fi.Mode(), err)
		}
	}
	assertHealthy(t, db)
}

// Two processes importing into one library at once both finish, and the library is whole.
func TestTwoProcessesShareALibrary(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes; skipped with -short")
	}
	bundle, want := crashBundle(t)
	eachEngine(t, func(t *testing.T, db string) {
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
	})
}

// Nightly CI on many nodes: four processes importing the same bundles into one library at
// once store each run and each file once, and the library is whole and healthy.
func TestFourProcessesImportTheSameBundles(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes; skipped with -short")
	}
	bundle, want := crashBundle(t)
	eachEngine(t, func(t *testing.T, db string) {
		var procs []*exec.Cmd
		for range 4 {
			cmd := child(db, bundle)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			procs = append(procs, cmd)
		}
		for i, p := range procs {
			if err := p.Wait(); err != nil {
				t.Errorf("process %d: %v", i, err)
			}
		}
		if got := assertConsistent(t, db); got != want {
			t.Errorf("%d runs, want %d", got, want)
		}
		assertHealthy(t, db)
	})
}
