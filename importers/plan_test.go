package importers

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A result listed and planned is read again to be stored: a file rewritten in between (in
// place, to another length, or replaced by another file) is refused, named, and never read as
// what it was planned from; the files left alone are read as planned.
func TestPlannedResultChangedIsRefused(t *testing.T) {
	result := func(date string) string {
		return `{"date": "` + date + `", "backend": "vllm", "model_id": "m", "num_prompts": 2, "completed": 2, "mean_ttft_ms": 10.0}`
	}
	for _, tc := range []struct {
		name   string
		change func(p string) error
	}{
		{"rewritten in place, same length", func(p string) error { return os.WriteFile(p, []byte(result("20250101-000009")), 0o644) }},
		{"grown", func(p string) error { return os.WriteFile(p, []byte(result("20250101-000009")+"\n"), 0o644) }},
		{"replaced by another file", func(p string) error {
			if err := os.WriteFile(p+".new", []byte(result("20250101-000002")), 0o644); err != nil {
				return err
			}
			return os.Rename(p+".new", p)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "bundle")
			os.MkdirAll(dir, 0o755)
			for _, n := range []string{"a", "b"} {
				os.WriteFile(filepath.Join(dir, n+".json"), []byte(result("20250101-000002")), 0o644)
			}
			entries, errs := ListBundle(dir, DefaultLimits)
			plan, perrs := PlanBundle(entries, 0)
			if len(errs)+len(perrs) > 0 || plan == nil || len(plan.Items) != 2 {
				t.Fatalf("plan: %v %v %v", errs, perrs, plan)
			}
			if entries[0].Data != nil || entries[1].Data != nil {
				t.Fatal("a planned result's bytes are kept")
			}
			if err := tc.change(filepath.Join(dir, "b.json")); err != nil {
				t.Fatal(err)
			}
			for i, e := range entries {
				err := e.Load()
				if err == nil {
					err = plan.Fill(plan.Items[i:i+1], e.Data)
				}
				switch {
				case i == 0 && err != nil:
					t.Errorf("a.json, unchanged: %v", err)
				case i == 0 && plan.Items[0].Run.NumPrompts != 2:
					t.Errorf("a.json: run not read whole: %+v", plan.Items[0].Run)
				case i == 1 && (!errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), "b.json")):
					t.Errorf("b.json, changed: %v, want ErrChanged naming it", err)
				case i == 1 && plan.Items[1].Run != nil:
					t.Errorf("b.json: the planned run was filled from other bytes: %+v", plan.Items[1].Run)
				}
			}
		})
	}
}
