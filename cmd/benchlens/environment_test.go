package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// envArm writes an arm as a lab commits it: five runs of a demo arm (results, logs, traces,
// no bundle.yaml), each with a copy of collect_env beside its result.
func envArm(t *testing.T, src, dir string, collectEnv []byte) string {
	t.Helper()
	runs, err := filepath.Glob(filepath.Join(src, "run-*"))
	if err != nil || len(runs) != 5 {
		t.Fatalf("demo runs: %v %v", runs, err)
	}
	for _, run := range runs {
		files, _ := os.ReadDir(run)
		for _, f := range files {
			data, err := os.ReadFile(filepath.Join(run, f.Name()))
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(dir, filepath.Base(run), f.Name()), data)
		}
		writeFile(t, filepath.Join(dir, filepath.Base(run), "collect_env.txt"), collectEnv)
	}
	return dir
}

type envRecord struct {
	StackFingerprint map[string]struct {
		Baseline, Candidate, State string
		Note                       string
		Source                     *struct{ Baseline, Candidate string }
	} `json:"stack_fingerprint"`
	Causes []struct{ Code, Reason string } `json:"causes"`
}

func compareEnv(t *testing.T, base, cand []byte) envRecord {
	t.Helper()
	dir := t.TempDir()
	db := filepath.Join(dir, "lib.db")
	mustRun(t, "--db", db, "import", "--label", "base", envArm(t, "../../demo/samples/baseline", filepath.Join(dir, "base"), base))
	mustRun(t, "--db", db, "import", "--label", "cand", envArm(t, "../../demo/samples/zero", filepath.Join(dir, "cand"), cand))
	out := mustRun(t, "--db", db, "compare", "--baseline", "base", "--candidate", "cand", "--format", "json")
	var rec envRecord
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatal(err)
	}
	return rec
}

// Two arms whose collect_env differ only in the driver: environment_differs names
// driver_version, with both files named at the line that states it; nothing else differs.
func TestCollectEnvDriverDiffers(t *testing.T) {
	base, err := os.ReadFile("../../testdata/fixtures/turn3-env/01_vllm-collect-env_v0.6.3_8xH100.txt")
	if err != nil {
		t.Fatal(err)
	}
	cand := []byte(strings.Replace(string(base), "Nvidia driver version: 550.90.12", "Nvidia driver version: 550.54.15", 1))
	rec := compareEnv(t, base, cand)
	var reason string
	for _, c := range rec.Causes {
		if c.Code == "environment_differs" {
			reason = c.Reason
		}
	}
	want := "environment differs: driver_version (550.90.12 from base/run-1/collect_env.txt line 27 vs 550.54.15 from cand/run-1/collect_env.txt line 27)"
	if reason != want {
		t.Errorf("environment_differs:\n got %q\nwant %q", reason, want)
	}
	drv := rec.StackFingerprint["driver_version"]
	if drv.State != "differs" || drv.Source == nil || drv.Source.Baseline != "base/run-1/collect_env.txt line 27" || drv.Source.Candidate != "cand/run-1/collect_env.txt line 27" {
		t.Errorf("driver_version %+v", drv)
	}
	for _, k := range []string{"base_stack_version", "engine_version", "transformers_version"} {
		if f := rec.StackFingerprint[k]; f.State != "same" {
			t.Errorf("%s %+v", k, f)
		}
	}
}

// The same arms with equal files: none of the fields collect_env states is unverified.
func TestCollectEnvVerifiesTheFieldsItStates(t *testing.T) {
	env, err := os.ReadFile("../../testdata/fixtures/turn3-env/01_vllm-collect-env_v0.6.3_8xH100.txt")
	if err != nil {
		t.Fatal(err)
	}
	rec := compareEnv(t, env, env)
	for _, c := range rec.Causes {
		if c.Code == "environment_differs" {
			t.Errorf("cause %+v", c)
		}
		if c.Code == "conditions_unverified" {
			for _, f := range []string{"driver_version", "base_stack_version", "hardware_sku"} {
				if strings.Contains(c.Reason, f) {
					t.Errorf("%s unverified: %s", f, c.Reason)
				}
			}
		}
	}
	if f := rec.StackFingerprint["base_stack_version"]; f.State != "same" || f.Baseline != "CUDA 12.4, torch 2.5.1+cu124" {
		t.Errorf("base_stack_version %+v", f)
	}
}

// A dump at a bundle's top folder is every run's below it: each run shows its facts.
func TestCollectEnvAboveTheRuns(t *testing.T) {
	env, err := os.ReadFile("../../testdata/fixtures/turn3-env/02_vllm-collect-env_v0.16.0_2xL40S.txt")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bundle := filepath.Join(dir, "bundle")
	writeFile(t, filepath.Join(bundle, "collect_env.txt"), env)
	writeFile(t, filepath.Join(bundle, "run-1", "result.json"), []byte(besideResult))
	writeFile(t, filepath.Join(bundle, "run-2", "result.json"), []byte(strings.Replace(besideResult, `"num_prompts": 2`, `"num_prompts": 3`, 1)))
	db := filepath.Join(dir, "lib.db")
	mustRun(t, "--db", db, "import", bundle)
	for _, id := range []string{"1", "2"} {
		var d struct {
			Fingerprint struct {
				Facts map[string]struct{ Value, File string }
			}
		}
		if err := json.Unmarshal([]byte(mustRun(t, "--db", db, "show", id, "--json")), &d); err != nil {
			t.Fatal(err)
		}
		if f := d.Fingerprint.Facts["driver_version"]; f.Value != "580.119.02" || f.File != "bundle/collect_env.txt" {
			t.Errorf("run %s: driver %+v", id, f)
		}
	}
}

// A server log and a collect_env of one run that name different engine versions (the log's
// vLLM 0.12.0, the dump's 0.16.0: the dump was taken in another environment) are flagged on
// the engine_version row and by show, both files named; a dump of the log's version is not.
func TestLogAndDumpEngineDisagree(t *testing.T) {
	other, err := os.ReadFile("../../testdata/fixtures/turn3-env/02_vllm-collect-env_v0.16.0_2xL40S.txt")
	if err != nil {
		t.Fatal(err)
	}
	same := []byte(strings.Replace(string(other), "vLLM Version                 : 0.16.0", "vLLM Version                 : 0.12.0", 1))
	dir := t.TempDir()
	db := filepath.Join(dir, "lib.db")
	mustRun(t, "--db", db, "import", "--label", "base", envArm(t, "../../demo/samples/baseline", filepath.Join(dir, "base"), other))
	mustRun(t, "--db", db, "import", "--label", "cand", envArm(t, "../../demo/samples/zero", filepath.Join(dir, "cand"), same))
	var rec envRecord
	if err := json.Unmarshal([]byte(mustRun(t, "--db", db, "compare", "--baseline", "base", "--candidate", "cand", "--format", "json")), &rec); err != nil {
		t.Fatal(err)
	}
	const want = `its files disagree: the server log says "vllm 0.12.0", base/run-1/collect_env.txt line 124 says "vllm 0.16.0"`
	eng := rec.StackFingerprint["engine_version"]
	if eng.State != "same" || eng.Baseline != "vllm 0.12.0" || !strings.Contains(eng.Note, "run 1: "+want) || strings.Contains(eng.Note, "cand/") {
		t.Errorf("engine_version %+v", eng)
	}
	if out := mustRun(t, "--db", db, "show", "1"); !strings.Contains(out, "its files disagree: engine_version: "+strings.TrimPrefix(want, "its files disagree: ")) {
		t.Errorf("show 1 does not flag it:\n%s", out)
	}
	if out := mustRun(t, "--db", db, "show", "6"); strings.Contains(out, "its files disagree") {
		t.Errorf("show 6 flags a dump of the log's own version:\n%s", out)
	}
}
