package library

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"benchlens/importers"
	"benchlens/model"
)

// armsOf is each label with its runs' precisions, as the library holds them after an import.
func armsOf(t *testing.T, rows []RunRow) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, r := range rows {
		out[r.Label] = append(out[r.Label], r.Precision)
	}
	return out
}

// The real H100 pair lies in one folder: by model, it is the two arms the lab meant, named
// by what tells them apart (FP16 from the file names, FP8 from the model's), with no relabel.
func TestLabelByModelSplitsTheH100Pair(t *testing.T) {
	st := openStore(t)
	dir := filepath.Join(fixtures, "h100-fp16-vs-fp8")
	plan := PlanImport(st, []string{dir}, importers.Limits{})
	if len(plan.Errors) > 0 || plan.Runs() != 4 {
		t.Fatalf("plan: %d runs, errors %v", plan.Runs(), plan.Errors)
	}
	groups := plan.Groups(LabelByModel)
	var got []string
	for _, g := range groups {
		got = append(got, g.Label+":"+strings.Join(g.Precisions, "+")+":"+strings.Join(g.Models, "+"))
		if g.Runs != 2 {
			t.Errorf("group %s: %d runs, want 2", g.Label, g.Runs)
		}
	}
	slices.Sort(got)
	want := []string{"FP16:FP16:meta-llama/Llama-3.1-8B-Instruct", "FP8:FP8:neuralmagic/Meta-Llama-3.1-8B-Instruct-FP8"}
	if !slices.Equal(got, want) {
		t.Errorf("groups by model:\n got %v\nwant %v", got, want)
	}
	if g := plan.Groups(LabelByBundle); len(g) != 1 || g[0].Label != "h100-fp16-vs-fp8" || g[0].Runs != 4 {
		t.Errorf("by the imported folder: %+v", g)
	}

	rep := Import(st, []string{dir}, Options{LabelBy: LabelByModel})
	if len(rep.Errors) > 0 || len(rep.Added) != 4 {
		t.Fatalf("import: %+v", rep)
	}
	rows, err := Rows(st)
	if err != nil {
		t.Fatal(err)
	}
	arms := armsOf(t, rows)
	if !slices.Equal(arms["FP16"], []string{"FP16", "FP16"}) || !slices.Equal(arms["FP8"], []string{"FP8", "FP8"}) || len(arms) != 2 {
		t.Errorf("arms after import --label-by model: %v", arms)
	}
	run, err := st.Run(rows[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if run.Precision != "FP16" || run.PrecisionFrom != "file name" {
		t.Errorf("run %d precision %q from %q, want FP16 from the file name", run.ID, run.Precision, run.PrecisionFrom)
	}
}

// A lab's folder of experiment folders is an arm per experiment by folder, the analyst's
// labels and roles per group win, and a manifest's label names its arm only by manifest.
func TestLabelByFolderAndManifest(t *testing.T) {
	lab := filepath.Join(t.TempDir(), "lab")
	result := "../demo/samples/baseline/run-1/vllm-infqps-concurrency16-Llama-3.1-8B-Instruct-20260112-094148.json"
	data, err := os.ReadFile(result)
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"exp-fa/run-1", "exp-fa/run-2", "exp-fi/run-1"} {
		d := filepath.Join(lab, name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		// Distinct runs: the date is part of what a run measured.
		changed := strings.Replace(string(data), `"date": "20260112-094148"`, `"date": "20260112-09414`+string(rune('0'+i))+`"`, 1)
		if changed == string(data) {
			t.Fatal("the sample's date was not found")
		}
		if err := os.WriteFile(filepath.Join(d, "result.json"), []byte(changed), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(lab, "exp-fi", "bundle.yaml"), []byte("label: flashinfer\nrole: candidate\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		by   LabelBy
		want string
	}{
		{LabelByFolder, "exp-fa:2:,exp-fi:1:candidate"},
		{LabelByManifest, "flashinfer:1:candidate,lab:2:"},
		{LabelByBundle, "lab:3:"},
	} {
		plan := PlanImport(openStore(t), []string{lab}, importers.Limits{})
		var got []string
		for _, g := range plan.Groups(c.by) {
			got = append(got, g.Label+":"+strconv.Itoa(g.Runs)+":"+string(g.Role))
		}
		slices.Sort(got)
		if strings.Join(got, ",") != c.want {
			t.Errorf("groups by %s: %v, want %s", c.by, got, c.want)
		}
	}

	st := openStore(t)
	plan := PlanImport(st, []string{lab}, importers.Limits{})
	choices := map[string]GroupChoice{}
	for _, g := range plan.Groups(LabelByFolder) {
		if g.Label == "exp-fa" {
			choices[g.Key] = GroupChoice{Label: " FLASH_ATTN ", Role: model.RoleBaseline}
		}
	}
	rep := Import(st, []string{lab}, Options{LabelBy: LabelByFolder, Groups: choices})
	if len(rep.Errors) > 0 || len(rep.Added) != 3 {
		t.Fatalf("import: %+v", rep)
	}
	rows, _ := Rows(st)
	var got []string
	for _, r := range rows {
		got = append(got, r.Label+"/"+string(r.Role))
	}
	if strings.Join(got, ",") != "FLASH_ATTN/baseline,FLASH_ATTN/baseline,exp-fi/candidate" {
		t.Errorf("arms after import by folder with the analyst's label: %v", got)
	}

	if rep := Import(st, []string{lab}, Options{LabelBy: "dir"}); len(rep.Errors) != 1 || !strings.Contains(rep.Errors[0].Error(), "--label-by") {
		t.Errorf("an unknown --label-by: %v", rep.Errors)
	}
}
