package serverlog

// vllm-ascend picks its attention class without a word in the log (NPUPlatform.
// get_attn_backend_cls returns a class path), so the class is inferred from the model's
// attention and the era of the server.

import "strings"

// attention is the kind of attention a model has, as vllm-ascend's class map keys it:
// (use_mla, use_sparse, use_compress).
type attention int

const (
	denseAttention attention = iota // MHA / GQA
	mlaAttention                    // DeepSeek V2 / V3 / R1, Kimi K2 …: use_mla
	sfaAttention                    // MLA with a sparse indexer (index_topk): DeepSeek V3.2, GLM-5
	dsaAttention                    // MLA with compressed KV (compress_ratios): DeepSeek V4
)

// ascendAttention reads the model's attention from its architecture line (or its name when no
// architecture is printed) and from the lines that name MLA (a FlashMLA guard, use_mla=True).
func (p *parser) ascendAttention() attention {
	name := strings.ToLower(p.modelName)
	byName := p.arch == "" && !strings.Contains(name, "distill")
	switch {
	case strings.Contains(p.arch, "DeepseekV4") || byName && strings.Contains(name, "deepseek-v4"):
		return dsaAttention
	case strings.Contains(p.arch, "DeepseekV32") || strings.Contains(p.arch, "GlmMoeDsa") ||
		byName && strings.Contains(name, "deepseek-v3.2"):
		return sfaAttention
	case p.mla:
		return mlaAttention
	}
	return denseAttention
}

// ascendClass is the class vllm-ascend picks for a model's attention in the era of the vLLM
// version its log prints (vllm-ascend's releases follow vLLM's numbers, ≈ for its main branch),
// from the plugin's platform.py: the V0 engine (vLLM < 0.8, or a V0 engine line) has
// AscendAttentionBackend / AscendMLAAttentionBackend; torchair graph mode has its own
// classes, for dense models from 0.9.2, MLA from 0.10.1 and SFA from 0.11, until 0.12 dropped
// it; SFA arrived in 0.11 (DeepSeek V3.2), DSA in 0.20.2 (DeepSeek V4). A sparse model is never
// given the dense class.
func ascendClass(version, engineMode string, a attention, torchair bool) string {
	v, ok := parseVersion(version)
	before := func(major, minor, patch int) bool { return ok && v.less(major, minor, patch) }
	v0 := engineMode == "V0" || engineMode == "" && before(0, 8, 0)
	torchair = torchair && !(ok && !v.less(0, 12, 0))
	switch {
	case v0 && a != denseAttention:
		return "AscendMLAAttentionBackend"
	case v0:
		return "AscendAttentionBackend"
	case a == dsaAttention:
		return "AscendDSABackend"
	case a == sfaAttention && torchair:
		return "AscendSFATorchairBackend"
	case a == sfaAttention:
		return "AscendSFABackend"
	case a == mlaAttention && torchair && !before(0, 10, 1):
		return "AscendMLATorchairBackend"
	case a == mlaAttention:
		return "AscendMLABackend"
	case torchair && !before(0, 9, 2):
		return "AscendAttentionTorchairBackend"
	}
	return "AscendAttentionBackend"
}
