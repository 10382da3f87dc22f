package library

import (
	"errors"
	"testing"

	"benchlens/analysis/compare"
)

// TestCompareAcceptsOverlappingArms: the library compared arms sharing runs, so the app did too;
// it now refuses them as a usage error naming the shared runs.
func TestCompareAcceptsOverlappingArms(t *testing.T) {
	st := openStore(t)
	root := writeTree(t, map[string]string{"a.json": vllmResult(t, "20250101-000001"), "b.json": vllmResult(t, "20250101-000002")})
	if rep := Import(st, []string{root}, Options{Label: "fp16"}); len(rep.Errors) > 0 || len(rep.Added) != 2 {
		t.Fatalf("import: %v", rep)
	}
	_, err := Compare(st, "1,2", "2", compare.DefaultSettings)
	if !errors.Is(err, ErrUsage) || err.Error() != `the baseline "fp16" and the candidate "fp16" share run(s) 2: give each arm its own runs` {
		t.Errorf("overlap: %v", err)
	}
	if _, err := Compare(st, "1", "2", compare.DefaultSettings); err != nil {
		t.Errorf("distinct arms: %v", err)
	}
}
