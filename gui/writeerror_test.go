package gui

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"benchlens/library"
)

// Exporting into a folder that takes no file says so in words naming the folder, never the
// temporary file the write went through, and once the message is closed the export dialog is
// back as it was filled in.
func TestExportIntoAReadOnlyFolder(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/sys is Linux's")
	}
	u := newDemoApp(t)
	ui(func() { u.compare.setArm(true, "baseline") })
	ui(func() { u.compare.setArm(false, "established") })
	shown(t, u, "baseline", "established")
	var id int64
	ui(func() {
		var err error
		if id, err = u.compare.saveOnce(); err != nil {
			t.Fatal(err)
		}
		u.exportDir = "/proc/sys"
		showExport(u, id)
	})
	ui(func() {
		name, ok := find(topDialog(u), func(e *widget.Entry) bool { return e.Text == "benchlens-baseline-vs-established.xlsx" })
		if !ok {
			t.Fatal("the default name does not name the comparison: no field reads benchlens-baseline-vs-established.xlsx")
		}
		name.SetText("baseline-vs-established.xlsx")
	})
	tapButton(t, u, "Export")
	readOnlyThenAgain(t, u, "baseline-vs-established.xlsx")
}

// readOnlyThenAgain checks what an export into /proc/sys shows: the words naming the folder
// (never a temporary file), and once they are closed the dialog again, its folder and name
// as they were.
func readOnlyThenAgain(t *testing.T, u *App, name string) {
	t.Helper()
	want := "Can't write to /proc/sys (read-only). Choose another folder."
	eventually(t, "the message about /proc/sys", func() bool { return shownText(u, want) })
	if text := get(func() string { return drawnText(topDialog(u)) }); strings.Contains(text, ".benchlens-") {
		t.Errorf("the message names a temporary file: %s", text)
	}
	ui(func() { u.escape() })
	eventually(t, "the dialog again", func() bool { return shownText(u, name) })
	ui(func() {
		if _, ok := find(topDialog(u), func(e *widget.Entry) bool { return e.Text == "/proc/sys" }); !ok {
			t.Errorf("the dialog came back without its folder: %s", drawnText(topDialog(u)))
		}
	})
}

// The import report lists each refused or unread file once, in rows that do not overlap
// however long their reasons wrap, and counts them in its title.
func TestImportReportRowsDoNotOverlap(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("a-lab-folder-named-by-its-whole-configuration-", 4)
	files := map[string]string{"broken.json": `{"bad": `, "a.json": "x", "notes.bin": "hello", long + ".json": "{"}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	ui(func() { u.importer.importPaths([]string{dir}, library.Options{}, nil) })
	eventually(t, "the import report", func() bool { return !u.importer.busy && shownText(u, "inputs refused") })
	ui(func() {
		top := topDialog(u)
		text := drawnText(top)
		if !strings.Contains(text, "3 inputs refused, 1 not read") {
			t.Errorf("the report's title: %s", text)
		}
		d := fyne.CurrentApp().Driver()
		var rows []*widget.Label
		for _, l := range under[*widget.Label](top, false) {
			if strings.HasPrefix(l.Text, "refused:") || strings.HasPrefix(l.Text, "not read:") {
				rows = append(rows, l)
			}
		}
		if len(rows) != 4 {
			t.Fatalf("%d rows, want one per file: %s", len(rows), text)
		}
		for i := 1; i < len(rows); i++ {
			above, below := rows[i-1], rows[i]
			if end, start := d.AbsolutePositionForObject(above).Y+above.Size().Height, d.AbsolutePositionForObject(below).Y; start < end-1 {
				t.Errorf("row %q (ends at %v) overlaps %q (starts at %v)", above.Text, end, below.Text, start)
			}
			if above.Size().Height < above.MinSize().Height-1 {
				t.Errorf("row %q is %v high, its text needs %v", above.Text, above.Size().Height, above.MinSize().Height)
			}
		}
	})
}
