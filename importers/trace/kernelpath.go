package trace

import (
	"sort"
	"strings"

	"benchlens/model"
)

// Attention implementations named by their kernels (METHOD.md rule 11): the backend that really
// ran, whatever the log says. The values are the log's backend enum where one implementation
// serves one backend; PAGED_ATTN is vLLM's legacy paged_attention_v1/v2 decode kernel (the V0
// XFORMERS / TORCH_SDPA / ROCm decode path), ASCEND any of the CANN attention operators.
const (
	KernelFlashAttn     = "FLASH_ATTN"
	KernelFlashInfer    = "FLASHINFER"
	KernelFlashInferMLA = "FLASHINFER_MLA"
	KernelTriton        = "TRITON_ATTN"
	KernelXFormers      = "XFORMERS"
	KernelPaged         = "PAGED_ATTN"
	KernelRocmAttn      = "ROCM_ATTN"
	KernelAiter         = "ROCM_AITER_FA"
	KernelAiterMLA      = "ROCM_AITER_MLA"
	KernelFlashMLA      = "FLASHMLA"
	KernelCutlassMLA    = "CUTLASS_MLA"
	KernelAscend        = "ASCEND"
)

// implRules map lower-case kernel-name substrings to the implementation, most specific first
// (MLA kernels before the attention kernels they derive from).
var implRules = []struct {
	impl string
	pats []string
}{
	// FlashMLA (flash_fwd_splitkv_mla_kernel), FlashInfer MLA (BatchMLAPagedAttentionKernel),
	// cutlass MLA (Sm100 Fmha…Mla…, sgl-kernel cutlass_mla), aiter MLA (mla_a8w8, mla_decode).
	{KernelFlashMLA, []string{"flash_fwd_splitkv_mla", "flashmla", "flash_mla"}},
	{KernelFlashInferMLA, []string{"batchmla"}},
	{KernelCutlassMLA, []string{"cutlass_mla", "fmhamla", "mlakernel", "sm100_mla"}},
	{KernelAiterMLA, []string{"mla_a8w8", "mla_a16w16", "aiter::mla", "mla_decode_fwd", "mla_stage", "mla_prefill_ps",
		"mla_reduce"}},
	// FlashInfer prefill / decode, and the TRT-LLM-gen kernels it dispatches to.
	{KernelFlashInfer, []string{"batchprefill", "batchdecode", "singleprefill", "singledecode",
		"flashinfer::", "fmhasm100", "xqa_kernel"}},
	// FlashAttention 2 (flash_fwd_kernel, split-KV), FA3 (FlashAttnFwdSm90), FA4 (CuTe DSL
	// flash_fwd_sm100 / FlashAttentionForwardSm100), PyTorch's own copy (pytorch_flash::).
	{KernelFlashAttn, []string{"flash_fwd", "flashattnfwd", "flashattentionforward", "pytorch_flash",
		"flash::", "flash_attn"}},
	// vLLM ROCm custom paged attention (ll4mi) before the generic paged kernels.
	{KernelRocmAttn, []string{"ll4mi", "paged_attention_rocm"}},
	{KernelPaged, []string{"paged_attention_v1", "paged_attention_v2"}},
	// Triton: vLLM unified attention and prefix prefill, SGLang decode / extend kernels.
	{KernelTriton, []string{"kernel_unified_attention", "_fwd_kernel_stage", "_fwd_grouped_kernel_stage",
		"context_attention_fwd", "extend_attention", "_attn_fwd"}},
	{KernelXFormers, []string{"fmha_cutlass"}},
	// ROCm aiter / composable kernel flash attention and paged attention.
	{KernelAiter, []string{"aiter", "ck_tile::fmha", "fmhafwd", "fmha_fwd", "fmha_v3", "pa_fwd", "pa_ragged"}},
	// Ascend CANN attention operators (op types and aclnn kernel names).
	{KernelAscend, []string{"flashattentionscore", "pagedattention", "increflashattention",
		"promptflashattention", "fusedinferattentionscore", "multilatentattention", "mlapreprocess",
		"selfattentionoperation"}},
}

// implOf names the attention implementation a kernel belongs to, or "" for attention kernels no
// implementation owns alone (KV-cache writes, state merges).
func implOf(name string) string {
	l := strings.ToLower(name)
	for _, r := range implRules {
		for _, p := range r.pats {
			if strings.Contains(l, p) {
				return r.impl
			}
		}
	}
	if shortName(name) == "_fwd_kernel" { // vLLM / SGLang Triton prefill (prefix_prefill.py)
		return KernelTriton
	}
	return ""
}

// kernelBackends lists the attention implementations the trace's kernels show, the one with the
// most device time first, each with its largest kernel as the proof.
func (a *acc) kernelBackends(ascend bool) []model.KernelImpl {
	type implAcc struct {
		count int
		ns    int64
		ops   map[string]int64
	}
	by := map[string]*implAcc{}
	for raw, o := range a.ops {
		if familyOf(raw, ascend) != FamAttention {
			continue
		}
		impl := implOf(raw)
		if impl == "" {
			continue
		}
		ia := by[impl]
		if ia == nil {
			ia = &implAcc{ops: map[string]int64{}}
			by[impl] = ia
		}
		ia.count += o.count
		ia.ns += o.ns
		ia.ops[a.display(raw)] += o.ns
	}
	out := make([]model.KernelImpl, 0, len(by))
	for impl, ia := range by {
		out = append(out, model.KernelImpl{Backend: impl, Kernel: topNames(ia.ops, 1)[0], Count: ia.count, TimeUs: us(ia.ns)})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].TimeUs != out[j].TimeUs {
			return out[i].TimeUs > out[j].TimeUs
		}
		return out[i].Backend < out[j].Backend
	})
	if len(out) == 0 {
		return nil
	}
	return out
}
