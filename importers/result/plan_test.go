package result

import (
	"testing"

	"benchlens/importers/format"
)

// PlanJSON reads a vLLM result's tool, model and label wherever they stand in the file, and
// hands every file it cannot vouch for to ReadJSON: one ReadJSON refuses, one of another tool,
// several values, arrays of another shape.
func TestPlanJSONReadsOnlyWhatReadJSONWouldGive(t *testing.T) {
	for _, tt := range []struct {
		name, data string
		ok         bool
		tool, mod  string
		label      string
	}{
		{"flat", `{"date": "20250101-000001", "backend": "vllm", "model_id": "m", "ttfts": [0.1, 0.2], "itls": [[0.01], [0.02, 0.03]]}`, true, "vllm", "m", ""},
		{"label after the arrays", `{"date": "20250101-000001", "backend": "vllm", "ttfts": [0.1, 0.2], "itls": [[], null], "errors": ["", "x"], "model_id": "late", "label": "arm"}`, true, "vllm", "late", "arm"},
		{"the Rust client", `{"date": "2025-01-01T00:00:01", "mode": "x", "model_id": "m", "ttfts": [1, NaN, -Infinity]}`, true, "vllm-bench", "m", ""},
		{"empty arrays", `{"date": "d", "backend": "vllm", "ttfts": [], "itls": []}`, true, "vllm", "", ""},
		{"lengths differ", `{"date": "d", "backend": "vllm", "ttfts": [0.1, 0.2], "input_lens": [1]}`, false, "", "", ""},
		{"itls flat", `{"date": "d", "backend": "vllm", "itls": [0.1, 0.2]}`, false, "", "", ""},
		{"itls of another length", `{"date": "d", "backend": "vllm", "ttfts": [0.1], "itls": [[0.1], [0.2]]}`, false, "", "", ""},
		{"errors of another length", `{"date": "d", "backend": "vllm", "ttfts": [0.1], "errors": ["", ""]}`, false, "", "", ""},
		{"a statistic as text", `{"date": "d", "backend": "vllm", "mean_ttft_ms": [1]}`, false, "", "", ""},
		{"a broken number deep in the gaps", `{"date": "d", "backend": "vllm", "itls": [[0.1, 1.e5]]}`, false, "", "", ""},
		{"cut short", `{"date": "d", "backend": "vllm", "ttfts": [0.1, `, false, "", "", ""},
		{"two values", `{"date": "d", "backend": "vllm"}` + "\n" + `{"date": "e", "backend": "vllm"}`, false, "", "", ""},
		{"SGLang", `{"backend": "sglang", "request_throughput": 1.0, "ttfts": [0.1]}`, false, "", "", ""},
		{"an array", `[{"date": "d", "backend": "vllm"}]`, false, "", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, ok := PlanJSON(&format.File{Name: "r.json", Data: []byte(tt.data)})
			if ok != tt.ok {
				t.Fatalf("ok %v, want %v", ok, tt.ok)
			}
			if !ok {
				return
			}
			if len(p.Runs) != 1 || p.Runs[0].Tool != tt.tool || p.Runs[0].Model != tt.mod || p.Runs[0].Label != tt.label {
				t.Fatalf("runs %+v, want %s / %s / %q", p.Runs, tt.tool, tt.mod, tt.label)
			}
			agree(t, "r.json", []byte(tt.data))
		})
	}
}

// FuzzPlanJSON holds the light pass to the full parse: whenever PlanJSON vouches for a file,
// ReadJSON reads it without an error into as many runs, of the same tool, model, label and
// role.
func FuzzPlanJSON(f *testing.F) {
	fixtures(func(_ string, data []byte) { f.Add(data) }, "*.json*")
	for _, s := range []string{
		`{"date": "d", "backend": "vllm", "ttfts": [0.1, 0.2], "itls": [[0.01], null], "errors": ["", "x"], "label": "a"}`,
		`{"date": "d", "backend": "vllm", "input_lens": [1, 2], "output_lens": [1.5, -0], "itls": [[], [1e-5, 2E+3]]}`,
		`{"model_id": "m", "itls": [null, null], "mean_ttft_ms": "12"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, ok := PlanJSON(&format.File{Name: "r.json", Data: data}); ok {
			agree(t, "r.json", data)
		}
	})
}

// agree fails unless ReadJSON reads data without an error into the runs PlanJSON planned.
func agree(t *testing.T, name string, data []byte) {
	t.Helper()
	light, _ := PlanJSON(&format.File{Name: name, Data: data})
	full, err := ReadJSON(&format.File{Name: name, Data: data})
	if err != nil || full.Part != nil || full.Why != "" || len(full.Runs) != len(light.Runs) {
		t.Fatalf("planned %d runs, read %d (part %v, why %q): %v", len(light.Runs), len(full.Runs), full.Part != nil, full.Why, err)
	}
	for i, r := range full.Runs {
		l := light.Runs[i]
		if r.Tool != l.Tool || r.Model != l.Model || r.Label != l.Label || r.Role != l.Role {
			t.Fatalf("run %d: planned %s / %s / %q / %q, read %s / %s / %q / %q", i, l.Tool, l.Model, l.Label, l.Role, r.Tool, r.Model, r.Label, r.Role)
		}
	}
}
