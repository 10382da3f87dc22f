package gui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// The import picker takes a pasted path, shows a lab's long file names whole, jumps to a name
// as its start is typed, ticks several files for one import, and opens again in the folder it
// was last in; choosing a folder shows the files in it.
func TestPickerTicksSeveralFilesOfAPastedFolder(t *testing.T) {
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	dir, err := filepath.Abs("../testdata/fixtures/results/h100-fp16-vs-fp8")
	if err != nil {
		t.Fatal(err)
	}
	var p *picker
	ui(func() { p = u.showPicker(false, u.importer.plan) })
	ui(func() {
		p.path.SetText(dir)
		pressEnter(&p.path.Entry)
	})
	long := "FP8-openai-10.0qps-itkns-1024-otkns-512-concurrency64-Meta-Llama-3.1-8B-Instruct-FP8-20250326-213319.json"
	text := get(func() string { return drawnText(topDialog(u)) })
	if !strings.Contains(text, long) {
		t.Errorf("the picker does not draw the whole name %s:\n%s", long, text)
	}
	// Typing the start of a name jumps to it; Enter on two names ticks them.
	ui(func() { test.Type(p.path, "FP8") })
	if got := get(func() string { return p.path.Text }); got != "FP8" {
		t.Errorf("the path field reads %q: the folder's path was not replaced by what was typed", got)
	}
	if i := get(func() int { return p.jumped }); i < 0 || !strings.HasPrefix(p.entries[i].Name(), "FP8") {
		t.Errorf("typing FP8 did not jump to an FP8 file (at %d)", i)
	}
	ui(func() {
		for i, e := range p.entries {
			if strings.HasPrefix(e.Name(), "FP8") {
				test.Tap(rowCheck(t, p, i))
			}
		}
	})
	if text := get(func() string { return drawnText(topDialog(u)) }); !strings.Contains(text, "2 ticked") {
		t.Errorf("two ticks are not counted:\n%s", text)
	}
	tapButton(t, u, "Import the ticked")
	eventually(t, "the import dialog of the two files", func() bool { return u.importer.current != nil })
	if paths := get(func() []string { return u.importer.current.paths }); len(paths) != 2 || !strings.Contains(paths[0], "FP8-") || !strings.Contains(paths[1], "FP8-") {
		t.Errorf("the import plans %v", paths)
	}
	ui(func() { u.escape() })

	// Choosing a folder: it opens where the last pick was, and the files there are drawn.
	ui(func() { p = u.showPicker(true, func([]string) {}) })
	ui(func() {
		if p.dir != dir {
			t.Errorf("the picker opens in %s, the last one was in %s", p.dir, dir)
		}
		if !strings.Contains(drawnText(topDialog(u)), long) {
			t.Error("choosing a folder hides its files")
		}
	})
	if _, err := os.Stat(dir); err != nil {
		t.Fatal(err)
	}
}

// rowCheck is the tick box of row i, as the list draws it.
func rowCheck(t *testing.T, p *picker, i int) *widget.Check {
	t.Helper()
	p.list.ScrollTo(i)
	want := p.entries[i].Name()
	b, ok := find(p.list, func(row *fyne.Container) bool {
		l, isLabel := row.Objects[0].(*widget.Label)
		return isLabel && l.Text == want
	})
	if !ok {
		t.Fatalf("row %s not drawn", want)
	}
	return b.Objects[1].(*fyne.Container).Objects[0].(*widget.Check)
}
