package importers

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"benchlens/importers/position"
	"benchlens/model"
)

// The change is free text or {what, fields, path}; anything else is refused with the file named.
func TestManifestChange(t *testing.T) {
	tests := []struct {
		yaml    string
		want    model.Change
		wantErr string
	}{
		{`change: "attention on FLASHINFER"`, model.Change{What: "attention on FLASHINFER"}, ""},
		{`change: {what: "FP8 weights", fields: [workload.model_name], path: linear}`,
			model.Change{What: "FP8 weights", Fields: []string{"workload.model_name"}, Path: "linear"}, ""},
		{"change:\n  what: FP8\n  fields:\n    - workload.model_name\n    - hardware_sku\n",
			model.Change{What: "FP8", Fields: []string{"workload.model_name", "hardware_sku"}}, ""},
		{`label: x`, model.Change{}, ""},
		{`change: {what: x, path: kernels}`, model.Change{}, "change.path kernels: expected one of attention, linear"},
		{`change: {what: x, fields: workload.model_name}`, model.Change{}, "change.fields: expected a list"},
		{`change: {what: x, field: [a]}`, model.Change{}, "change.field: unknown key"},
		{`change: [a, b]`, model.Change{}, "change: expected text or {what, fields, path}"},
	}
	for _, tt := range tests {
		m, err := ParseManifest("b/bundle.yaml", []byte(tt.yaml))
		if tt.wantErr != "" {
			var fe *position.Error
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.As(err, &fe) || fe.File != "b/bundle.yaml" {
				t.Errorf("%s: error %v, want %q naming the file", tt.yaml, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.yaml, err)
		}
		got := m.Change()
		if got.What != tt.want.What || got.Path != tt.want.Path || !slices.Equal(got.Fields, tt.want.Fields) {
			t.Errorf("%s: %+v, want %+v", tt.yaml, got, tt.want)
		}
	}
	c := model.Change{Fields: []string{"workload.model_name", "hardware_sku"}}
	if !c.Declares("workload", "model_name") || !c.Declares("hardware_sku", "") || c.Declares("workload", "seed") || c.TargetPath() != "attention" {
		t.Errorf("declares/target path wrong for %+v", c)
	}
}
