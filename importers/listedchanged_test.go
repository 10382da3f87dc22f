package importers

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A listed file is read only if it is still the file listed: the same file (device and inode,
// as os.SameFile has it) of the same size. One replaced by another of the same size, grown or
// cut is refused, naming it; one rewritten in place at its size is read (its bytes are checked
// against the plan's later, Plan.Same).
func TestListedFileReadOnlyIfStillTheOneListed(t *testing.T) {
	for _, c := range []struct {
		name    string
		change  func(t *testing.T, path string)
		changed bool
	}{
		{"untouched", func(*testing.T, string) {}, false},
		{"rewritten in place, same size", func(t *testing.T, p string) { writeText(t, p, `{"b": 2}`) }, false},
		{"replaced by another file of the same size", func(t *testing.T, p string) {
			other := p + ".new"
			writeText(t, other, `{"c": 3}`)
			if err := os.Rename(other, p); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"grown", func(t *testing.T, p string) { writeText(t, p, `{"a": 1, "b": 2}`) }, true},
		{"cut", func(t *testing.T, p string) { writeText(t, p, `{}`) }, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "r.json")
			writeText(t, p, `{"a": 1}`)
			entries, errs := ListBundle(dir, DefaultLimits)
			if len(errs) > 0 || len(entries) != 1 || !entries[0].Listed() {
				t.Fatalf("listed %d entries, errors %v", len(entries), errs)
			}
			c.change(t, p)
			err := entries[0].Load()
			if got := errors.Is(err, ErrChanged); got != c.changed {
				t.Fatalf("Load: %v, want ErrChanged %v", err, c.changed)
			}
			if c.changed && err.Error() != p+": "+ErrChanged.Error() {
				t.Errorf("Load: %q, want the file named", err)
			}
		})
	}
}

func writeText(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
