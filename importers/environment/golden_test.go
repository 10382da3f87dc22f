package environment

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchlens/internal/goldenfile"
	"benchlens/model"
)

// inputs are the dumps written for this package (testdata) and the real ones
// (testdata/fixtures/turn3-env), by path.
func inputs(t testing.TB) []string {
	var out []string
	for _, pattern := range []string{"testdata/*.txt", "../../testdata/fixtures/turn3-env/*.txt"} {
		names, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, names...)
	}
	if len(out) < 15 {
		t.Fatalf("only %d dumps found", len(out))
	}
	return out
}

// Every dump, real or written, reads to what its golden file says: the facts with their lines,
// the devices, the NUMA nodes and the variables kept.
func TestGolden(t *testing.T) {
	for _, name := range inputs(t) {
		t.Run(filepath.Base(name), func(t *testing.T) {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			ev, warnings, err := Parse(name, data)
			if err != nil {
				t.Fatal(err)
			}
			got := struct {
				Tool     string             `json:"detected"`
				Evidence *model.EnvEvidence `json:"evidence"`
				Warnings []model.Warning    `json:"warnings,omitempty"`
			}{Detect(data), ev, warnings}
			goldenfile.JSON(t, filepath.Join("testdata", "golden", strings.TrimSuffix(filepath.Base(name), ".txt")+".json"), got)
		})
	}
}
