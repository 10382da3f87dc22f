package library

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A profiler trace put beside a result imported before joins the stored run when the folder is
// imported again, with a line saying so; a third import changes nothing and says nothing new.
func TestFileBesideAStoredRunIsAttached(t *testing.T) {
	st := openStore(t)
	root := writeTree(t, map[string]string{"result.json": vllmResult(t, "20250101-000001")})
	first := Import(st, []string{root}, Options{})
	if len(first.Added) != 1 || len(first.Errors) > 0 {
		t.Fatalf("first import: %+v", first)
	}
	id := first.Added[0]
	tr, err := os.ReadFile("../importers/trace/testdata/ascend_trace_view.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "trace_view.json"), tr, 0o644); err != nil {
		t.Fatal(err)
	}

	second := Import(st, []string{root}, Options{})
	if len(second.Added) != 0 || len(second.Existing) != 1 || second.Attached != 1 || len(second.Errors)+len(second.Skipped) > 0 {
		t.Fatalf("second import: %+v", second)
	}
	if len(second.Already) != 1 || !strings.Contains(second.Already[0], "newly attached to run 1: bundle/trace_view.json") {
		t.Errorf("second import does not name the attached trace: %q", second.Already)
	}
	evs, err := st.RunEvidence(id)
	if err != nil || len(evs) != 1 || evs[0].Trace == nil || evs[0].Trace.Steps != 4 {
		t.Fatalf("run %d's evidence after the second import: %+v, %v", id, evs, err)
	}
	before := tableCounts(t, st)

	third := Import(st, []string{root}, Options{})
	if len(third.Existing) != 1 || strings.Contains(strings.Join(third.Already, "\n"), "attached") {
		t.Errorf("third import: %+v", third)
	}
	if after := tableCounts(t, st); after != before {
		t.Errorf("third import changed the tables: %v -> %v", before, after)
	}
}

// A companion or a bundle.yaml put beside a result imported before would change the stored
// run, which a re-import never does: the import says so in a line of its own, attaches neither
// and leaves the run as it was, instead of dropping the one unsaid or calling the other
// attached while its declarations go unread.
func TestPartOrManifestBesideAStoredRunIsNotApplied(t *testing.T) {
	result, err := os.ReadFile("../importers/result/testdata/aiperf-rollups/profile_runs/run_0001/profile_export_aiperf.json")
	if err != nil {
		t.Fatal(err)
	}
	csv, err := os.ReadFile("../importers/result/testdata/aiperf/profile_export_aiperf.csv")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ file, content, want string }{
		{"profile_export_aiperf.csv", string(csv), "bundle/profile_export_aiperf.csv: a part of run 1's result, not applied"},
		{"bundle.yaml", "hardware_sku: \"NVIDIA H100 80GB HBM3 x1\"\n", "bundle/bundle.yaml: a manifest of runs already in the library, not applied"},
	} {
		t.Run(tt.file, func(t *testing.T) {
			st := openStore(t)
			root := writeTree(t, map[string]string{"profile_export_aiperf.json": string(result)})
			if first := Import(st, []string{root}, Options{}); len(first.Added) != 1 || len(first.Errors) > 0 {
				t.Fatalf("first import: %+v", first)
			}
			before := tableCounts(t, st)
			if err := os.WriteFile(filepath.Join(root, tt.file), []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			second := Import(st, []string{root}, Options{})
			if len(second.Existing) != 1 || second.Attached != 0 || len(second.Skipped) != 1 || !strings.Contains(second.Skipped[0].Error(), tt.want) {
				t.Errorf("second import: %+v, want one line %q", second, tt.want)
			}
			if after := tableCounts(t, st); after != before {
				t.Errorf("the stored run changed: %v -> %v", before, after)
			}
		})
	}
}
