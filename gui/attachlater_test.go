package gui

import (
	"os"
	"path/filepath"
	"testing"

	"benchlens/library"
)

// A trace dropped in beside a run imported before joins it; the app says so in the import's
// dialog, since its status line soon gives way to the library's count.
func TestAttachedOnReimportIsShown(t *testing.T) {
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	src := "../demo/samples/baseline/run-1"
	dir := filepath.Join(t.TempDir(), "run-1")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile := func(name string) {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyFile("vllm-infqps-concurrency16-Llama-3.1-8B-Instruct-20260112-094148.json")
	dropAndConfirm(t, u, dir)
	eventually(t, "the first import", func() bool { return !u.importer.busy && u.library.count() == 1 })

	copyFile("trace.json")
	dropAndConfirm(t, u, dir)
	eventually(t, "the second import", func() bool {
		return !u.importer.busy && len(u.importer.last.Existing) == 1
	})
	if last := get(func() library.Report { return u.importer.last }); last.Attached != 1 || len(last.Errors) != 0 {
		t.Fatalf("second import: %+v", last)
	}
	for _, want := range []string{"Imported 0 runs, 1 already in the library, 1 files newly attached to them",
		"newly attached to run 1: run-1/trace.json"} {
		if !get(func() bool { return shownText(u, want) }) {
			t.Errorf("the import's dialog does not show %q", want)
		}
	}
}
