package library

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"benchlens/importers"
	"benchlens/store"
)

// A bundle imported planned, its runs read a window at a time, stores what one assembled whole
// stores: every run's fields (labels, roles, phases, manifests, statistics, warnings), its
// files with their roles and hashes, and the same lines in the report. The lab layouts group
// warm-up files, sweeps of shapes and both arms of one folder; the fixtures hold parts, which
// a plan leaves to Assemble.
func TestPlannedImportStoresWhatAWholeOneDoes(t *testing.T) {
	bundles := []string{"../testdata/fixtures/results", "../testdata/slo-sweep", "../testdata/slo-saturated"}
	layouts, _ := filepath.Glob("../cmd/benchlens/testdata/labruns/*")
	for _, l := range layouts {
		if !strings.HasSuffix(l, ".md") && !strings.HasSuffix(l, ".py") {
			bundles = append(bundles, l)
		}
	}
	bundles = append(bundles, writeTree(t, map[string]string{
		"bundle.yaml":            "label: arm-a\nrole: baseline\nworkload: {seed: 1, input_len: 1024}\n",
		"server.log":             "INFO 03-25 22:31:57 selector.py:135] Using Flash Attention backend.\n",
		"run-1/result.json":      vllmResult(t, "20250101-000001"),
		"run-1/warmup.json":      vllmResult(t, "20250101-000000"),
		"run-2/bundle.yaml":      "label: arm-b\nrole: candidate\n",
		"run-2/result.json":      vllmResult(t, "20250101-000002"),
		"run-2/logs/gpu.csv":     "timestamp, index, utilization.gpu [%]\n2025/01/01 00:00:00.000, 0, 97 %\n",
		"run-2/notes/readme.txt": "free text",
		"broken.json":            `{"date": "20250101-000003", "backend": "vllm", "num_prompts": `,
	}))
	// What the light first pass (importers.Format.Plan) reads, and what it hands to the full
	// parse: the grouping fields after the per-request arrays, a file the full parse refuses
	// past its arrays' syntax (lengths, shapes, a number deep in the gaps), several values,
	// another tool's result, and a folder whose only result fails beside its log.
	bundles = append(bundles, writeTree(t, map[string]string{
		"late/result.json": `{"date": "20250101-000010", "backend": "vllm", "ttfts": [0.1, 0.2], "itls": [[0.01], [0.02, 0.03]],` +
			` "errors": ["", ""], "input_lens": [3, 4], "num_prompts": 2, "model_id": "late-model", "label": "late-label"}`,
		"late/rust.json":     `{"date": "2025-01-01T00:00:11", "mode": "serve", "model_id": "m", "ttfts": [0.1], "itls": [null]}`,
		"refused/sizes.json": `{"date": "20250101-000012", "backend": "vllm", "ttfts": [0.1, 0.2], "input_lens": [1], "model_id": "m"}`,
		"refused/flat.json":  `{"date": "20250101-000013", "backend": "vllm", "itls": [0.1, 0.2], "model_id": "m"}`,
		"refused/stat.json":  `{"date": "20250101-000014", "backend": "vllm", "mean_ttft_ms": [1, 2], "model_id": "m"}`,
		"refused/gaps.json":  `{"date": "20250101-000015", "backend": "vllm", "model_id": "m", "itls": [[0.1, 1.e5]]}`,
		"alone/result.json":  `{"date": "20250101-000018", "backend": "vllm", "model_id": "m", "ttfts": [0.1], "itls": [[0.1], [0.2]]}`,
		"alone/server.log":   "INFO 03-25 22:31:57 selector.py:135] Using Flash Attention backend.\n",
		"lines/runs.jsonl":   vllmResult(t, "20250101-000016") + "\n" + vllmResult(t, "20250101-000017") + "\n",
		"sglang/result.json": `{"backend": "sglang", "model": "s", "request_throughput": 1.0, "ttfts": [0.1], "completed": 1}`,
	}))
	planned := 0
	for _, dir := range bundles {
		entries, _ := importers.ListBundle(dir, importers.DefaultLimits)
		if plan, _ := importers.PlanBundle(entries, 0); plan != nil {
			planned++
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			whole, wholeRep := storedRuns(t, dir, 1<<30, 0)
			// Planned, every result read again, or kept read whole from the plan.
			for _, keep := range []int64{0, 1 << 30} {
				byWindow, plannedRep := storedRuns(t, dir, 0, keep)
				if wholeRep != plannedRep {
					t.Errorf("keep %d: reports differ:\nwhole:   %s\nplanned: %s", keep, wholeRep, plannedRep)
				}
				if len(whole) == 0 || len(whole) != len(byWindow) {
					t.Fatalf("keep %d: %d runs stored whole, %d planned", keep, len(whole), len(byWindow))
				}
				for i := range whole {
					if whole[i] != byWindow[i] {
						t.Errorf("keep %d: run %d differs:\nwhole:   %s\nplanned: %s", keep, i+1, whole[i], byWindow[i])
					}
				}
			}
		})
	}
	if planned < 5 {
		t.Errorf("%d of %d bundles planned: the test no longer reads runs a window at a time", planned, len(bundles))
	}
}

// storedRuns imports dir into a new library, planned when it has more than above files (keep:
// planKeep), one result file a window, and returns each stored run (in the order stored) with its files, and
// the report's lines.
func storedRuns(t *testing.T, dir string, above int, keep int64) ([]string, string) {
	t.Helper()
	oldAbove, oldKeep, oldRuns := planAbove, planKeep, windowRuns
	planAbove, planKeep, windowRuns = above, keep, 1
	defer func() { planAbove, planKeep, windowRuns = oldAbove, oldKeep, oldRuns }()
	st := openStore(t)
	rep := Import(st, []string{dir}, Options{})
	var out []string
	for _, id := range rep.Added {
		run, err := st.Run(id)
		if err != nil {
			t.Fatal(err)
		}
		files, err := st.RunFiles(id)
		if err != nil {
			t.Fatal(err)
		}
		for i := range files {
			files[i].ID = 0
		}
		run.ID = 0
		b, err := json.Marshal(struct {
			Run   any
			Files []store.FileInfo
		}{run, files})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	lines := func(errs []error) []string {
		var s []string
		for _, e := range errs {
			s = append(s, e.Error())
		}
		slices.Sort(s)
		return s
	}
	return out, fmt.Sprintf("added %d, existing %d, errors %q, skipped %q, already %q", len(rep.Added), len(rep.Existing),
		lines(rep.Errors), lines(rep.Skipped), rep.Already)
}
