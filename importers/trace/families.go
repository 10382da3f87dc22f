package trace

import (
	"sort"
	"strings"

	"benchlens/model"
)

// Operator families (METHOD.md rule 11). A device op is filed by its kernel name: the first rule
// of its platform's table that matches wins, so the specific families (communication, MoE,
// attention, ...) come before the broad ones (gemm, elementwise). Names are matched lower-cased,
// by substring. The patterns are the kernel names the engines' own sources launch:
//
//   - vLLM csrc: paged_attention_v1/v2_kernel, reshape_and_cache(_flash)_kernel, rms_norm_kernel,
//     fused_add_rms_norm_kernel, rotary_embedding_kernel, act_and_mul_kernel, cross_device_reduce_*
//     (custom all-reduce), moe_align_block_size_kernel, topkGatingSoftmax, moe_sum_kernel,
//     Marlin / gptq_marlin / marlin_moe, machete, cutlass scaled_mm (GemmUniversal,
//     cutlass_scaled_mm), Triton kernel_unified_attention_2d/3d, fused_moe_kernel,
//     _w8a8_block_fp8_matmul, per_token_group_quant_fp8;
//   - FlashAttention 2/3/4: flash_fwd_kernel, flash_fwd_splitkv(_combine)_kernel, FA3
//     FlashAttnFwdSm90, FA4 (CuTe DSL) flash_fwd_sm100 / FlashAttentionForwardSm100; FlashMLA
//     flash_fwd_splitkv_mla_kernel;
//   - FlashInfer: BatchPrefillWith{Paged,Ragged}KVCacheKernel, BatchDecodeWithPagedKVCacheKernel,
//     BatchMLAPagedAttentionKernel, MergeStates, RMSNormKernel / FusedAddRMSNormKernel,
//     BatchQKApplyRotary*, TopKTopPSamplingFromProbKernel / SamplingFromProbKernel;
//   - SGLang sgl-kernel and Triton attention: _fwd_kernel_stage1/2, _fwd_grouped_kernel_stage1,
//     extend attention _fwd_kernel, moe_fused_gate, cutlass MLA;
//   - xFormers fmha_cutlassF/B; cuBLAS / cuBLASLt (sm90_xmma_gemm_*, nvjet_*, ampere_*gemm*,
//     cutlass_80_tensorop_*gemm*, gemv2T_kernel, gemmk1_kernel, splitKreduce_kernel); NCCL
//     ncclKernel_* / ncclDevKernel_*;
//   - ROCm: rocBLAS / Tensile and hipBLASLt Cijk_*, CK ck::kernel_gemm*, aiter fmha_fwd / pa_* /
//     mla_*, vLLM paged_attention_ll4mi*, RCCL (ncclKernel names too);
//   - PyTorch itself (at::native): elementwise, reduce, copy, cat, index and fill kernels, the
//     layer / group norm kernels, and Inductor's triton_{poi,red,per}_fused_* (a fused
//     "mean … rsqrt" reduction is an RMSNorm);
//   - Ascend (torch_npu / vllm-ascend / CANN op types, also inside aclnn… kernel names):
//     FlashAttentionScore, PagedAttention, IncreFlashAttention, PromptFlashAttention,
//     FusedInferAttentionScore, MultiLatentAttention / MLA, ReshapeAndCache, MatMul*,
//     BatchMatMul*, QuantBatchMatmul*, GroupedMatmul (MoE), MoeGatingTopK*, MoeInitRouting*,
//     MoeFinalizeRouting*, RmsNorm, AddRmsNorm, LayerNorm, RotaryMul, RopeWithSinCos,
//     ApplyRotaryPosEmb, SwiGlu, hcom_* / HCCL (communication), ArgMax / TopK / Sort
//     (sampling), the vector ops (Add, Mul, Cast, Softmax, ...), and the ATB operations
//     vllm-ascend's _npu_* calls run (PagedAttentionOperation, SelfAttentionOperation,
//     ReshapeAndCacheOperation, RopeOperation, LinearOperation, ElewiseOperation,
//     ActivationOperation, RmsNormOperation, AllReduceOperation).
//
// "other" is what none of these names: on the training traces of the fixtures (HTA's DLRM
// pair, 15 % of device time) fbgemm's embedding-table kernels and cub's radix sort, on HTA's
// sync test its spin kernel; on serving traces it should be small. Each family lists its
// largest ops, so "other" is always explained by name.
const (
	FamAttention    = "attention"
	FamGemm         = "gemm"
	FamMoE          = "moe"
	FamNorm         = "norm"
	FamElementwise  = "elementwise" // activations and every pointwise / reduce / copy kernel
	FamRotary       = "rotary"
	FamSampling     = "sampling"
	FamComm         = "communication"
	FamMemcpy       = "memcpy" // copies and memsets of the copy engine
	FamOther        = "other"
	familyExamplesN = 3
)

// Families lists the family keys in display order.
var Families = []string{FamAttention, FamGemm, FamMoE, FamNorm, FamElementwise, FamRotary,
	FamSampling, FamComm, FamMemcpy, FamOther}

// famRule files names containing any of pats (lower-case) under fam.
type famRule struct {
	fam  string
	pats []string
}

// gpuRules is the table for CUDA and ROCm kernel names (Kineto, modern and legacy).
var gpuRules = []famRule{
	{FamComm, []string{"nccl", "rccl", "cross_device_reduce", "all_reduce", "allreduce", "all_gather",
		"allgather", "reduce_scatter", "reducescatter", "alltoall", "all_to_all", "custom_ar", "quickreduce",
		"deep_ep", "deepep", "nvshmem", "pynccl"}},
	// Training-only embedding tables (fbgemm): named here so gemm's "gemm" does not take them.
	{FamOther, []string{"fbgemm_gpu::", "split_embedding", "bounds_check_indices"}},
	{FamMoE, []string{"moe", "topkgatingsoftmax", "topk_softmax", "expert", "grouped_topk", "group_gemm",
		"groupedgemm", "grouped_gemm"}},
	// Attention, with its KV-cache writes and split-KV merges: the targeted ops of the default path.
	{FamAttention, []string{"attention", "attn", "flash_fwd", "flash_bwd", "flashattn", "fmha", "mha_",
		"paged_attention", "batchprefill", "batchdecode", "singleprefill", "singledecode", "mergestate",
		"merge_state", "merge_attn", "batchmla", "mla_", "_mla", "reshape_and_cache", "concat_and_cache",
		"kv_cache", "_fwd_kernel_stage", "_fwd_grouped_kernel_stage", "decode_att", "extend_attention",
		"context_attention", "prefix_prefill", "_fwd_kernel", "reduce_segments", "xqa", "sdpa",
		"scaled_dot_product", "cudnn_generated_fort_native_sdpa", "pa_fwd", "pa_ragged"}},
	{FamRotary, []string{"rotary", "rope", "pos_encoding", "applyrotary", "mrope"}},
	{FamNorm, []string{"rms_norm", "rmsnorm", "layer_norm", "layernorm", "group_norm", "groupnorm",
		"batch_norm", "batchnorm", "norm_kernel", "gammabetabackward", "computefusedparams"}},
	{FamSampling, []string{"sampling", "sample", "topk_topp", "top_k_top_p", "topkmask", "top_p", "top_k",
		"argmax", "multinomial", "penalt", "gumbel", "logits", "softmax_kernel"}},
	{FamGemm, []string{"gemm", "gemv", "cijk_", "nvjet", "xmma", "matmul", "mm_kernel", "scaled_mm", "marlin",
		"machete", "cutlass", "cublas", "hipblaslt", "wmma", "sgemm", "hgemm", "s16816", "s1688", "h16816",
		"splitkreduce", "w8a8", "fp8_quant", "quant_fp8", "group_quant", "scaled_fp8", "dynamic_scaled",
		"awq", "gptq", "bmm", "dot_kernel", "ck::kernel_gemm", "deep_gemm", "fp8_gemm", "fp4", "tensorop"}},
	{FamElementwise, []string{"elementwise", "act_and_mul", "silu", "gelu", "relu", "swiglu", "geglu",
		"sigmoid", "tanh", "reduce_kernel", "copy", "fill", "cat", "index", "gather", "scatter", "triton_poi",
		"triton_red", "triton_per", "add", "mul", "div", "where", "clamp", "compare", "pow", "exp", "embedding",
		"unrolled", "vectorized", "arange", "masked", "transpose", "permute", "reduce", "sum", "mean", "max",
		"min", "cast", "convert", "to_copy", "dropout", "tril", "triu"}},
}

// ascendRules is the table for Ascend op types and kernel names.
var ascendRules = []famRule{
	{FamComm, []string{"hcom", "hccl", "allreduce", "allgather", "reducescatter", "alltoall"}},
	{FamMoE, []string{"moe", "groupedmatmul", "grouped_matmul", "expert"}},
	{FamAttention, []string{"flashattention", "pagedattention", "increflashattention", "promptflashattention",
		"fusedinferattention", "multilatentattention", "mlapreprocess", "mla", "attention", "reshapeandcache",
		"scatterpakvcache", "kvcache", "selfattention"}},
	{FamRotary, []string{"rotary", "rope"}},
	{FamNorm, []string{"rmsnorm", "layernorm", "norm"}},
	// Pooling kernels (MaxPoolWithArgmaxV1) are reductions, not sampling's argmax.
	{FamElementwise, []string{"maxpool", "avgpool", "pooling"}},
	{FamSampling, []string{"argmax", "topk", "sort", "sample", "multinomial"}},
	{FamGemm, []string{"matmul", "gemm", "gemv", "quantbatchmatmul", "weightquant", "mmad", "dynamicquant",
		"quant", "conv", "linearoperation", "linear"}},
	{FamElementwise, []string{"swiglu", "silu", "gelu", "relu", "add", "sub", "mul", "div", "cast", "zeroslike",
		"fill", "concat", "slice", "split", "transpose", "gather", "scatter", "index", "reduce", "sum", "mean",
		"max", "min", "pow", "exp", "sqrt", "tile", "broadcastto", "select", "equal", "less", "greater",
		"masked", "where", "range", "reshape", "permute", "expand", "neg", "abs", "embedding", "sigmoid",
		"tanh", "copy", "assign", "identity", "transdata", "memset", "dropout", "tril", "triu", "oneslike",
		"genbitmask", "logical", "softmax", "elewise", "activation"}},
}

// familyOf files one device op under its family. Copies and memsets carry the fixed labels the
// accumulator gives them.
func familyOf(name string, ascend bool) string {
	if isCopyLabel(name) {
		return FamMemcpy
	}
	l := strings.ToLower(name)
	rules := gpuRules
	if ascend {
		rules = ascendRules
		if strings.Contains(l, "memcpy") {
			return FamMemcpy
		}
		l = strings.TrimSuffix(l, "operation") // ATB: "LinearOperation" must not read as "…rOpe…"
	} else if strings.HasPrefix(l, "triton_red_fused") || strings.HasPrefix(l, "triton_per_fused") {
		// Inductor's fused RMSNorm: a mean of squares and an rsqrt in one reduction.
		if strings.Contains(l, "rsqrt") && strings.Contains(l, "mean") {
			return FamNorm
		}
	}
	for _, r := range rules {
		for _, p := range r.pats {
			if strings.Contains(l, p) {
				return r.fam
			}
		}
	}
	return FamOther
}

func isCopyLabel(name string) bool {
	if name == "Memset" {
		return true
	}
	for _, l := range copyLabels {
		if name == l {
			return true
		}
	}
	return false
}

// families sums the accumulated device ops per family. Every op lands in exactly one family, so
// the totals add up to the trace's device time (Σ of kernel, copy and memset durations).
func (a *acc) families(ascend bool) ([]model.FamilyStat, float64) {
	type famAcc struct {
		count int
		ns    int64
		ops   map[string]int64 // short name → ns
	}
	by := map[string]*famAcc{}
	var total int64
	for raw, o := range a.ops {
		f := familyOf(raw, ascend)
		fa := by[f]
		if fa == nil {
			fa = &famAcc{ops: map[string]int64{}}
			by[f] = fa
		}
		fa.count += o.count
		fa.ns += o.ns
		n := raw
		if !isCopyLabel(raw) {
			n = a.display(raw)
		}
		fa.ops[n] += o.ns
		total += o.ns
	}
	if len(by) == 0 {
		return nil, 0
	}
	out := make([]model.FamilyStat, 0, len(by))
	for _, f := range Families {
		fa := by[f]
		if fa == nil {
			continue
		}
		s := model.FamilyStat{Family: f, Count: fa.count, TimeUs: us(fa.ns)}
		if total > 0 {
			s.Share = float64(fa.ns) / float64(total)
		}
		s.Top = topNames(fa.ops, familyExamplesN)
		out = append(out, s)
	}
	return out, us(total)
}

// topNames returns the n names with the most time, largest first.
func topNames(m map[string]int64, n int) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool {
		if m[names[i]] != m[names[j]] {
			return m[names[i]] > m[names[j]]
		}
		return names[i] < names[j]
	})
	if len(names) > n {
		names = names[:n]
	}
	return names
}
