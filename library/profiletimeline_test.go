package library

import (
	"os"
	"path/filepath"
	"testing"

	"benchlens/model"
	"benchlens/store"
)

// A run with an Nsight Systems export and no smi trace takes its utilisation shape from the
// export's device timeline (METHOD.md rule 8); with an smi trace beside, the smi trace is the
// shape, and the npu-smi table's snapshot is facts, never a timeline.
func TestProfilerTimelineStandsInForSmi(t *testing.T) {
	export, err := os.ReadFile("../testdata/fixtures/turn3/gpu_03_perlmutter-cloverleaf-cuda.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	snapshot, err := os.ReadFile("../testdata/fixtures/turn3/npu_12_npusmi_info_910B3_24.1.0.3.EXCERPT.txt")
	if err != nil {
		t.Fatal(err)
	}
	result := []byte(`{"date": "20250101-000000", "backend": "vllm", "model_id": "m", "num_prompts": 2, "completed": 2, "mean_ttft_ms": 10.0}`)
	smi := []byte("timestamp, index, utilization.gpu [%]\n2025/03/25 22:31:57.123, 0, 91 %\n2025/03/25 22:31:58.123, 0, 93 %\n")
	for _, tc := range []struct {
		name     string
		files    map[string][]byte
		wantTool string
	}{
		{"export alone", map[string][]byte{"run.sqlite": export}, "nsys device activity (kernels, copies, memsets)"},
		{"export and smi", map[string][]byte{"run.sqlite": export, "gpu.csv": smi}, "nvidia-smi query"},
		{"snapshot alone", map[string][]byte{"npu.txt": snapshot}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := store.Open(filepath.Join(t.TempDir(), "lib.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			dir := filepath.Join(t.TempDir(), "b")
			os.MkdirAll(dir, 0o755)
			os.WriteFile(filepath.Join(dir, "result.json"), result, 0o644)
			for n, data := range tc.files {
				os.WriteFile(filepath.Join(dir, n), data, 0o644)
			}
			rep := Import(st, []string{dir}, Options{})
			if len(rep.Errors) > 0 || len(rep.Added) != 1 {
				t.Fatalf("%+v", rep)
			}
			rd, err := LoadRun(st, rep.Added[0])
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.wantTool == "" && len(rd.Util) != 0:
				t.Errorf("a snapshot is no timeline: %+v", rd.Util[0])
			case tc.wantTool != "" && (len(rd.Util) != 1 || rd.Util[0].Tool != tc.wantTool):
				t.Errorf("utilisation %+v", rd.Util)
			case tc.wantTool != "" && rd.Util[0].Devices[0].Shape == nil:
				t.Error("the timeline has no shape")
			}
			if f, _ := rd.Fingerprint.Fact(model.FactDriver); tc.wantTool == "" && f.Value != "24.1.0.3" {
				t.Errorf("fingerprint %+v", rd.Fingerprint)
			}
			if f, _ := rd.Fingerprint.Fact(model.FactHardwareSKU); tc.name == "export alone" && f.Value != "4 × NVIDIA A100-SXM4-80GB, 79.2 GiB each" {
				t.Errorf("fingerprint %+v", rd.Fingerprint)
			}
		})
	}
}
