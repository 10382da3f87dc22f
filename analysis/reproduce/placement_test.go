package reproduce

import (
	"strings"
	"testing"

	"benchlens/model"
)

// What collect_env states is pinned: the driver, stack and devices as pins with their source,
// the visible devices on the server command, and the NUMA node of those devices through
// numactl (the 2026 H200 dump of importers/environment: CUDA_VISIBLE_DEVICES=2,3, NUMA 1).
func TestRecipePinsWhatTheDumpStates(t *testing.T) {
	env := &model.EnvEvidence{
		Facts: map[string]model.Line{model.FactDriver: {N: 39, Text: "580.95.05"}, model.FactCUDA: {N: 17, Text: "13.0"},
			model.FactTorch: {N: 15, Text: "2.10.0+cu130"}},
		Devices: []model.EnvDevice{{ID: "0", NUMA: "0"}, {ID: "1", NUMA: "0"}, {ID: "2", NUMA: "1", NUMALine: 94}, {ID: "3", NUMA: "1", NUMALine: 95}},
		Env:     []model.EnvVar{{Name: "NVIDIA_VISIBLE_DEVICES", Value: "all", Line: 149}, {Name: "CUDA_VISIBLE_DEVICES", Value: "2,3", Line: 150}},
	}
	r := Run{Run: vllmRun(1, model.EraVLLMG, 16), Logs: []*model.LogEvidence{vllmLog("0.12.0", "FLASH_ATTN", "flag")},
		Fingerprint: model.FingerprintOf([]model.Evidence{{File: "run-1/collect_env.txt", Environment: env}})}
	a := BuildArm("a", []Run{r})
	server := a.Server[0].Shell()
	if !strings.HasPrefix(server, "CUDA_VISIBLE_DEVICES=2,3 numactl --cpunodebind=1 --membind=1 vllm serve ") {
		t.Errorf("server: %s", server)
	}
	script := Recipe{Baseline: a, Candidate: a}.Script()
	for _, want := range []string{
		"#   [ ] driver_version: 580.95.05 (from run-1/collect_env.txt line 39)",
		"#   [ ] base_stack_version: CUDA 13.0, torch 2.10.0+cu130 (from run-1/collect_env.txt line 17)",
		"#   [ ] numa: 1 (from run-1/collect_env.txt line 94)",
		"#   [ ] card_slot: devices 2,3 (from run-1/collect_env.txt line 150)",
		"#   [ ] visible_devices: CUDA_VISIBLE_DEVICES=2,3 (from run-1/collect_env.txt line 150)",
		"CUDA_VISIBLE_DEVICES=2,3 numactl --cpunodebind=1 --membind=1 vllm serve",
	} {
		if !strings.Contains(script, want) {
			t.Errorf("script lacks %q:\n%s", want, script)
		}
	}
}

// A stored recipe whose NUMA list is not one is not run: the command is commented out.
func TestHostileNUMAIsRejected(t *testing.T) {
	c := Command{Tool: "x", NUMA: "0; touch ~/PWNED", Args: []string{"vllm", "serve", "m"}}
	var b strings.Builder
	c.script(&b)
	if got := b.String(); !strings.HasPrefix(got, "# rejected, not a NUMA node list: ") || strings.Contains(got, "\n") && strings.Count(got, "\n") != 1 {
		t.Errorf("%q", got)
	}
}
