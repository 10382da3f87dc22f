package compare

import (
	"strings"
	"testing"

	"benchlens/model"
)

// A manifest's free text and what the files state are one condition unless a component named
// in both has another version, count or model.
func TestConsistent(t *testing.T) {
	for _, c := range []struct {
		key, declared, stated string
		want                  bool
	}{
		{"driver_version", "550.54.15", "550.54.15", true},
		{"driver_version", "550.54.15", "550.90.12", false},
		{"base_stack_version", "CANN 8.0.RC3, torch-npu 2.4.0.post2", "CANN 8.0.RC3, torch 2.4.0, torch_npu 2.4.0.post2", true},
		{"base_stack_version", "CANN 8.0.RC3, torch-npu 2.5.1", "CANN 8.0.RC3, torch 2.4.0, torch_npu 2.4.0.post2", false},
		{"base_stack_version", "CUDA 12.4, torch 2.5.1", "CUDA 12.4, torch 2.5.1+cu124", true},
		{"base_stack_version", "CUDA 12.9, torch 2.9.0", "CUDA 12.4, torch 2.5.1+cu124", false},
		{"base_stack_version", "the lab image of May", "CUDA 12.4, torch 2.5.1+cu124", false},
		{"engine_version", "vLLM v0.6.3", "vllm 0.6.3.post2.dev308+gb489fc3c", true},
		{"engine_version", "vLLM 0.12.0", "vllm 0.6.3", false},
		{"hardware_sku", "Ascend 910B 64GB x8, 392 GB/s", "8 × 910B2, 65536 MB HBM each", true},
		{"hardware_sku", "Ascend 910B x4", "8 × 910B2, 65536 MB HBM each", false},
		{"hardware_sku", "NVIDIA H100 80GB HBM3 x1, NVLink none", "8 × NVIDIA H100 80GB HBM3, NV18", false},
		{"hardware_sku", "H100 x8", "8 × NVIDIA H100 80GB HBM3, NV18", true},
		{"hardware_sku", "A100 x8", "8 × NVIDIA H100 80GB HBM3, NV18", false},
	} {
		if got := consistent(c.key, c.declared, c.stated); got != c.want {
			t.Errorf("consistent(%s, %q, %q) = %v, want %v", c.key, c.declared, c.stated, got, c.want)
		}
	}
}

// The stack, engine and hardware read from the facts one file or several state, spelled as
// the server log and npu-smi's facts spell them.
func TestStatedFields(t *testing.T) {
	ev := &model.EnvEvidence{Facts: map[string]model.Line{
		model.FactCANN: {N: 9, Text: "8.0.RC3"}, model.FactTorch: {N: 1, Text: "2.4.0"}, model.FactTorchNPU: {N: 3, Text: "2.4.0.post2"},
		model.FactVLLM: {N: 4, Text: "0.1.dev1+g70e500c"}, model.FactVLLMAscend: {N: 5, Text: "0.1.dev100+g663dca7"},
		model.FactDeviceModel: {N: 7, Text: "910B2"}, model.FactDeviceCount: {N: 7, Text: "8"}, model.FactDeviceMemory: {N: 7, Text: "65536 MB"},
	}}
	fp := model.FingerprintOf([]model.Evidence{{File: "env.txt", Environment: ev}})
	for _, c := range []struct {
		name string
		got  model.Fact
		want string
	}{
		{"stack", fp.Stack(), "CANN 8.0.RC3, torch 2.4.0, torch_npu 2.4.0.post2 (env.txt line 9)"},
		{"engine", fp.Engine(), "vLLM 0.1.dev1+g70e500c + vllm-ascend 0.1.dev100+g663dca7 (env.txt line 5)"},
		{"hardware", fp.Hardware(), "8 × 910B2, 65536 MB HBM each (env.txt line 7)"},
	} {
		if got := c.got.Value + " (" + c.got.Source() + ")"; got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// Where a manifest and a file disagree, the record shows both, the file's value with its line.
func TestManifestAndFileDisagree(t *testing.T) {
	mk := func(id int64, driver string, env *model.EnvEvidence) RunData {
		r := model.NewRun("vllm")
		r.ID = id
		r.Manifest = model.Manifest{"stack_fingerprint": map[string]any{"driver_version": driver}}
		return RunData{Run: r, Fingerprint: model.FingerprintOf([]model.Evidence{{File: "a/collect_env.txt", Environment: env}})}
	}
	env := &model.EnvEvidence{Facts: map[string]model.Line{model.FactDriver: {N: 27, Text: "550.90.12"}}}
	f := conditionFields[1]
	if f.key != "driver_version" {
		t.Fatal(f.key)
	}
	side := f.armValue(Arm{Runs: []RunData{mk(1, "550.54.15", env)}})
	if side.value != "550.90.12" || side.source != "a/collect_env.txt line 27" ||
		!strings.Contains(side.note, `bundle.yaml says "550.54.15", its files say "550.90.12 from a/collect_env.txt line 27"`) {
		t.Errorf("%+v", side)
	}
	if side := f.armValue(Arm{Runs: []RunData{mk(1, "550.90.12", env)}}); side.note != "" {
		t.Errorf("agreeing manifest noted: %+v", side)
	}
	// Two files of one run that disagree: both shown, the first one's value used.
	rd := mk(2, "", env)
	rd.Fingerprint = model.FingerprintOf([]model.Evidence{{File: "a/collect_env.txt", Environment: env},
		{File: "a/nvidia-smi-q.txt", Environment: &model.EnvEvidence{Facts: map[string]model.Line{model.FactDriver: {N: 5, Text: "550.54.15"}}}}})
	side = f.armValue(Arm{Runs: []RunData{rd}})
	if side.value != "550.90.12" || !strings.Contains(side.note, `run 2: its files disagree: a/collect_env.txt line 27 says "550.90.12", a/nvidia-smi-q.txt line 5 says "550.54.15"`) {
		t.Errorf("%+v", side)
	}
}

// A dump's VLLM_ATTENTION_BACKEND is the target when the log only implies its platform
// default (rule 3), said as such; the variables that pick a path are quoted with their file.
func TestDumpVariablesArePathEvidence(t *testing.T) {
	r := model.NewRun("vllm")
	r.ID = 7
	env := &model.EnvEvidence{Env: []model.EnvVar{
		{Name: "VLLM_ATTENTION_BACKEND", Value: "flashinfer", Line: 150},
		{Name: "VLLM_USE_V1", Value: "1", Line: 151},
		{Name: "VLLM_WORKER_MULTIPROC_METHOD", Value: "spawn", Line: 152},
	}}
	rd := RunData{Run: r, Fingerprint: model.FingerprintOf([]model.Evidence{{File: "run-1/collect_env.txt", Environment: env}}),
		Logs: []*model.LogEvidence{{Engine: "vllm", TargetBackend: "FLASH_ATTN", TargetSource: model.TargetDefault, Resolved: "FLASHINFER"}}}
	p := pathOf(Arm{Runs: []RunData{rd}}, "candidate")
	if p.target != "FLASHINFER" || p.targetFrom != "VLLM_ATTENTION_BACKEND=FLASHINFER from run-1/collect_env.txt line 150" {
		t.Errorf("target %q from %q", p.target, p.targetFrom)
	}
	var quoted []string
	for _, l := range p.evidence {
		if l.File == "run-1/collect_env.txt" {
			quoted = append(quoted, l.Text)
		}
	}
	if strings.Join(quoted, ";") != "VLLM_ATTENTION_BACKEND=flashinfer;VLLM_USE_V1=1" {
		t.Errorf("path lines %q", quoted)
	}
	rd.Logs[0].TargetSource = model.TargetFlag // the log names the flag: it wins
	if p := pathOf(Arm{Runs: []RunData{rd}}, "candidate"); p.target != "FLASH_ATTN" {
		t.Errorf("a flag in the log lost to the dump: %q", p.target)
	}
}
