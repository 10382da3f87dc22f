package gui

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
)

// Five runs at one concurrency, each of its own request shape (a lab's sweep of shapes,
// testdata/labruns/five-shapes/random: vLLM summaries whose shape only their totals and the
// bundle.yaml's dataset say), imported as the analyst drops the folder, are five rows of the
// sidebar that each say their shape beside their load, as drawn: they read alike but for it.
func TestRunRowsSayTheirRequestShape(t *testing.T) {
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	ui(func() {
		u.importer.onDropped(fyne.Position{}, dropped("../cmd/benchlens/testdata/labruns/five-shapes/random"))
	})
	eventually(t, "the import dialog", func() bool { return u.importer.current != nil && topDialog(u) != nil })
	tapButton(t, u, "Import")
	eventually(t, "the import", func() bool { return !u.importer.busy && u.library.count() == 5 })
	ui(func() { u.library.tree.OpenAllBranches() })
	var text string
	eventually(t, "five run rows", func() bool {
		text = drawnText(u.library.content)
		return strings.Count(text, "conc. 16") == 5
	})
	rows := regexp.MustCompile(`#\d+ · [^#]*`).FindAllString(text, -1)
	if len(rows) != 5 {
		t.Fatalf("%d run rows drawn, want 5:\n%s", len(rows), text)
	}
	for _, in := range []string{"conc. 16 · ≈1000 in ·", "conc. 16 · ≈2000 in ·", "conc. 16 · ≈5000 in ·", "conc. 16 · ≈10000 in ·", "conc. 16 · ≈30000 in ·"} {
		n := 0
		for _, r := range rows {
			if strings.Contains(r, in) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%d rows say %q, want one:\n%s", n, in, strings.Join(rows, "\n"))
		}
	}
}
