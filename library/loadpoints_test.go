package library

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"benchlens/analysis/compare"
	"benchlens/model"
)

func pointLabels(rec compare.Record) []string {
	var out []string
	for _, p := range rec.LoadPoints {
		out = append(out, p.Label)
	}
	return out
}

func hasCause(rec compare.Record, code model.CauseCode) bool {
	return slices.ContainsFunc(rec.Causes, func(c compare.Cause) bool { return c.Code == code })
}

// The real H100 pair ran concurrency 1 and 64 on each side: two matched points, never drift
// for the sweep; with the change declared in bundle.yaml the model names are the change.
func TestVLLMSweepPairMatchesPoints(t *testing.T) {
	fixtures := "../testdata/fixtures/results/h100-fp16-vs-fp8"
	files, _ := filepath.Glob(filepath.Join(fixtures, "*.json"))
	if len(files) != 4 {
		t.Fatalf("fixtures: %v", files)
	}
	for _, declared := range []bool{false, true} {
		st := openStore(t)
		tree := map[string]string{}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			arm := "fp16"
			if strings.HasPrefix(filepath.Base(f), "FP8") {
				arm = "fp8"
			}
			tree[arm+"/"+filepath.Base(f)] = string(data)
		}
		tree["fp16/bundle.yaml"] = "label: fp16\nrole: baseline\n"
		tree["fp8/bundle.yaml"] = "label: fp8\nrole: candidate\n"
		if declared {
			tree["bundle.yaml"] = `change: {what: "FP8 weights", fields: [workload.model_name], path: linear}` + "\n"
		}
		if rep := Import(st, []string{writeTree(t, tree)}, Options{}); len(rep.Errors) > 0 || len(rep.Added) != 4 {
			t.Fatalf("import: %d runs, %v", len(rep.Added), rep.Errors)
		}
		rec, err := Compare(st, "fp16", "fp8", compare.DefaultSettings)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"concurrency 1, rate 10 req/s · ≈939→≈512 tok", "concurrency 64, rate 10 req/s · ≈939→≈512 tok"}
		if got := pointLabels(rec); !slices.Equal(got, want) {
			t.Errorf("points %v, want %v", got, want)
		}
		for _, p := range rec.LoadPoints {
			if p.Repeats != (compare.PerArm[int]{Baseline: 1, Candidate: 1}) || p.Status != model.NotEstablished ||
				!slices.ContainsFunc(p.Causes, func(c compare.Cause) bool { return c.Code == model.MeasurementUncontrolled }) {
				t.Errorf("%s: %+v %s %v", p.Label, p.Repeats, p.Status, p.Causes)
			}
			if !p.Deltas["tpot"].Better {
				t.Errorf("%s: TPOT %+v", p.Label, p.Deltas["tpot"])
			}
		}
		for _, c := range rec.Causes {
			if strings.Contains(c.Reason, "max_concurrency") {
				t.Errorf("the shared sweep is called drift: %s", c.Reason)
			}
		}
		if hasCause(rec, model.LoadDrift) == declared {
			t.Errorf("declared %v: load_drift %v (%v)", declared, hasCause(rec, model.LoadDrift), rec.Causes)
		}
		if rec.HoldsUnder != "not_established at concurrency 1-64" {
			t.Errorf("holds under %q", rec.HoldsUnder)
		}
	}
}

// GuideLLM's benchmarks.json holds a synchronous and a 4-stream benchmark: two load points,
// never one pooled condition.
func TestGuideLLMBenchmarksAreLoadPoints(t *testing.T) {
	st := openStore(t)
	rep := Import(st, []string{"../importers/result/testdata/guidellm/benchmarks.json"}, Options{Label: "g"})
	if len(rep.Errors) > 0 || len(rep.Added) != 2 {
		t.Fatalf("import: %d runs, %v", len(rep.Added), rep.Errors)
	}
	// The arm against itself (which Compare refuses) shows how its runs split into points.
	arm, err := LoadArm(st, "g")
	if err != nil {
		t.Fatal(err)
	}
	rec := compare.Compare(arm, arm, compare.DefaultSettings)
	if got := pointLabels(rec); !slices.Equal(got, []string{"concurrency 1 · ≈512→≈128 tok", "concurrency 4 · ≈512→≈128 tok"}) {
		t.Errorf("points %v", got)
	}
	if hasCause(rec, model.LoadDrift) || len(rec.Unmatched) > 0 {
		t.Errorf("causes %v unmatched %v", rec.Causes, rec.Unmatched)
	}
}

// AIPerf's sweep writes concurrency_N/ folders; a file whose input_config does not name its
// concurrency takes it from the folder.
func TestAIPerfConcurrencyFolders(t *testing.T) {
	st := openStore(t)
	rep := Import(st, []string{"../importers/result/testdata/aiperf-sweep"}, Options{})
	if len(rep.Errors) > 0 || len(rep.Added) != 4 {
		t.Fatalf("import: %d runs, %v", len(rep.Added), rep.Errors)
	}
	rec, err := Compare(st, "aiperf-baseline", "aiperf-candidate", compare.DefaultSettings)
	if err != nil {
		t.Fatal(err)
	}
	if got := pointLabels(rec); !slices.Equal(got, []string{"concurrency 1", "concurrency 8"}) {
		t.Fatalf("points %v", got)
	}
	if hasCause(rec, model.LoadDrift) {
		t.Errorf("causes %v", rec.Causes)
	}
	if d := rec.LoadPoints[0].Deltas["ttft"].Delta.F(); d > -19 || d < -21 {
		t.Errorf("TTFT delta at concurrency 1: %v%%, want -20%%", d)
	}
	run, err := st.Run(rec.LoadPoints[0].Runs.Baseline[0])
	if err != nil {
		t.Fatal(err)
	}
	if run.Extra["load_from"] != "folder concurrency_1" {
		t.Errorf("load_from %v", run.Extra["load_from"])
	}
}
