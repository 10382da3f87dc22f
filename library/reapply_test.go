package library

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"benchlens/model"
)

// A bundle.yaml put beside a run already stored is applied when asked: one line per run
// naming each field from what to what, the run stored with it (label, role, change), the
// manifest linked so a later import no longer calls it unapplied; asked again, one line says
// nothing changed.
func TestReapplyManifestsChangesStoredRuns(t *testing.T) {
	st := openStore(t)
	root := writeTree(t, map[string]string{"result.json": vllmResult(t, "20250101-000001")})
	first := Import(st, []string{root}, Options{})
	if len(first.Added) != 1 || len(first.Errors) > 0 {
		t.Fatalf("first import: %+v", first)
	}
	id := first.Added[0]
	before, err := st.RunHeader(id)
	if err != nil {
		t.Fatal(err)
	}
	manifest := "label: FP8\nrole: candidate\nchange:\n  what: FP8 weights\n  fields: [workload.model_name]\n  path: linear\n"
	if err := os.WriteFile(filepath.Join(root, "bundle.yaml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	if rep := Import(st, []string{root}, Options{}); !reflect.DeepEqual(rep.Unapplied, []string{root}) {
		t.Errorf("an import leaving the manifest unapplied names %q, want %q", rep.Unapplied, root)
	}

	rep := ReapplyManifests(st, []string{root}, Options{})
	wantLine := `run 1: label "` + before.Label + `" → "FP8"; role ` + string(before.Role) + ` → candidate; ` +
		`change.fields (none) → ["workload.model_name"]; change.path (none) → "linear"; change.what (none) → "FP8 weights"`
	if len(rep.Errors) > 0 || !reflect.DeepEqual(rep.Lines, []string{wantLine}) || !reflect.DeepEqual(rep.Changed, []int64{id}) {
		t.Fatalf("reapply: %+v\nwant the line %q", rep, wantLine)
	}
	after, err := st.RunHeader(id)
	if err != nil {
		t.Fatal(err)
	}
	want := model.Change{What: "FP8 weights", Fields: []string{"workload.model_name"}, Path: model.PathLinear}
	if after.Label != "FP8" || after.Role != model.RoleCandidate || !reflect.DeepEqual(after.Manifest.Change(), want) {
		t.Errorf("stored after reapply: %s/%s %+v", after.Label, after.Role, after.Manifest.Change())
	}
	if after.Tool != before.Tool || after.Date != before.Date || after.Completed != before.Completed {
		t.Errorf("reapply changed what the run measured: %+v -> %+v", before, after)
	}

	again := ReapplyManifests(st, nil, Options{}) // every bundle of the library
	if len(again.Errors) > 0 || len(again.Changed) != 0 || len(again.Lines) != 1 || !strings.Contains(again.Lines[0], "nothing changed") {
		t.Errorf("reapplied twice: %+v, want one line saying nothing changed", again)
	}
	if rep := Import(st, []string{root}, Options{}); len(rep.Skipped) > 0 || len(rep.Unapplied) > 0 {
		t.Errorf("an import after reapply: %+v, want the manifest applied", rep)
	}
}

// A bundle none of whose runs is stored is named, and nothing is stored by a reapply.
func TestReapplyManifestsLeavesUnstoredRuns(t *testing.T) {
	st := openStore(t)
	root := writeTree(t, map[string]string{"result.json": vllmResult(t, "20250101-000001"), "bundle.yaml": "label: x\n"})
	rep := ReapplyManifests(st, []string{root}, Options{})
	if len(rep.Changed) != 0 || len(rep.Lines) != 1 || !strings.Contains(rep.Lines[0], "none of its runs is in the library") {
		t.Errorf("reapply of a bundle not imported: %+v", rep)
	}
	if ids, _ := st.RunsWithLabel("x"); len(ids) != 0 {
		t.Errorf("reapply stored runs %v", ids)
	}
}

// A reapplied bundle.yaml that declares the request shape gives the run's listing that shape:
// its stored point is made again with the manifest.
func TestReapplyManifestsStoresTheNewShape(t *testing.T) {
	st := openStore(t)
	root := writeTree(t, map[string]string{"result.json": vllmResult(t, "20250101-000001")})
	if rep := Import(st, []string{root}, Options{}); len(rep.Added) != 1 || len(rep.Errors) > 0 {
		t.Fatalf("import: %+v", rep)
	}
	shape := func() string {
		var got []string
		if err := EachBriefRows(st, func(rows []BriefRow) error {
			for _, r := range rows {
				got = append(got, r.Shape)
			}
			return nil
		}); err != nil || len(got) != 1 {
			t.Fatalf("brief rows %q (%v)", got, err)
		}
		return got[0]
	}
	before := shape()
	manifest := "workload:\n  input_len: 2048\n  output_len: 128\n  dataset: random\n"
	if err := os.WriteFile(filepath.Join(root, "bundle.yaml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	if rep := ReapplyManifests(st, []string{root}, Options{}); len(rep.Errors) > 0 || len(rep.Changed) != 1 {
		t.Fatalf("reapply: %+v", rep)
	}
	if after, want := shape(), "2048→128"; after != want {
		t.Errorf("the listed shape after reapply is %q (before %q), want %q", after, before, want)
	}
}
