package gui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchlens/library"
)

// A bundle.yaml put beside runs already stored is applied from the import report: its button
// draws a line per run changed, naming the field from what to what, and the run is stored so.
func TestImportReportAppliesManifests(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "h100")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	name := "FP8-openai-10.0qps-itkns-1024-otkns-512-concurrency1-Meta-Llama-3.1-8B-Instruct-FP8-20250326-212501.json"
	data, err := os.ReadFile(filepath.Join("../testdata/fixtures/results/h100-fp16-vs-fp8", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	ui(func() { u.importer.importPaths([]string{dir}, library.Options{}, nil) })
	eventually(t, "the first import", func() bool { return !u.importer.busy && len(u.importer.last.Added) == 1 })
	if err := os.WriteFile(filepath.Join(dir, "bundle.yaml"), []byte("label: FP8\nchange: FP8 weights\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ui(func() { u.importer.importPaths([]string{dir}, library.Options{}, nil) })
	eventually(t, "the import report", func() bool { return !u.importer.busy && shownText(u, "not read:") })
	tapButton(t, u, "Apply the manifests to the stored runs")
	want := `applied: run 1: label "h100" → "FP8"; change (none) → "FP8 weights"`
	eventually(t, "the line of the run changed", func() bool { return strings.Contains(drawnText(topDialog(u)), want) })
	if ids, err := u.st.RunsWithLabel("FP8"); err != nil || len(ids) != 1 {
		t.Errorf("runs labelled FP8 after applying: %v, %v", ids, err)
	}
}
