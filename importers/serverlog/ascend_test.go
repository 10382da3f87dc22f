package serverlog

import "testing"

// The class vllm-ascend picks silently, per model attention and era (its platform.py at each
// release): a sparse or MLA model never gets the dense class, torchair classes only where they
// existed.
func TestAscendClass(t *testing.T) {
	for _, tt := range []struct {
		version, mode string
		a             attention
		torchair      bool
		want          string
	}{
		{"0.7.3", "", mlaAttention, false, "AscendMLAAttentionBackend"},
		{"0.8.5", "V0", denseAttention, false, "AscendAttentionBackend"},
		{"0.9.1", "V1", mlaAttention, true, "AscendMLABackend"}, // 0.9.1: torchair inside the MLA class
		{"0.9.2", "V1", denseAttention, true, "AscendAttentionTorchairBackend"},
		{"0.10.1", "V1", mlaAttention, true, "AscendMLATorchairBackend"},
		{"0.11.0", "V1", sfaAttention, true, "AscendSFATorchairBackend"},
		{"0.11.0", "V1", sfaAttention, false, "AscendSFABackend"},
		{"0.13.0", "V1", mlaAttention, true, "AscendMLABackend"}, // torchair dropped in 0.12
		{"0.13.0", "V1", denseAttention, true, "AscendAttentionBackend"},
		{"0.27.1", "V1", dsaAttention, false, "AscendDSABackend"},
		{"0.27.1", "V1", mlaAttention, false, "AscendMLABackend"},
		{"", "", sfaAttention, false, "AscendSFABackend"},
	} {
		if got := ascendClass(tt.version, tt.mode, tt.a, tt.torchair); got != tt.want {
			t.Errorf("%s %s attention %d torchair %v: %s, want %s", tt.version, tt.mode, tt.a, tt.torchair, got, tt.want)
		}
	}
}

// The model's attention, from its architecture line or, without one, its name.
func TestAscendAttention(t *testing.T) {
	for _, tt := range []struct {
		arch, name string
		mla        bool
		want       attention
	}{
		{"DeepseekV41ForCausalLM", "/models/v41-flat-verify3", false, dsaAttention},
		{"DeepseekV4ForCausalLM", "", false, dsaAttention},
		{"DeepseekV32ForCausalLM", "", true, sfaAttention},
		{"GlmMoeDsaForCausalLM", "zai-org/GLM-5", false, sfaAttention},
		{"DeepseekV3ForCausalLM", "", true, mlaAttention},
		{"", "deepseek-ai/DeepSeek-V3.2-Exp", false, sfaAttention},
		{"", "deepseek-ai/DeepSeek-V4-Flash", false, dsaAttention},
		{"Qwen2ForCausalLM", "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B", false, denseAttention},
		{"Qwen3ForCausalLM", "", false, denseAttention},
	} {
		p := newParser()
		p.arch, p.modelName, p.mla = tt.arch, tt.name, tt.mla
		if got := p.ascendAttention(); got != tt.want {
			t.Errorf("%s %s: %d, want %d", tt.arch, tt.name, got, tt.want)
		}
	}
}
