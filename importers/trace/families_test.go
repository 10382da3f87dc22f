package trace

import (
	"bytes"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"benchlens/internal/cputime"
	"benchlens/internal/kinetogen"
)

// Real kernel names, as the engines' sources and the fixtures' traces spell them.
func TestFamilyOf(t *testing.T) {
	cases := []struct {
		name   string
		ascend bool
		fam    string
		impl   string
	}{
		// Attention and the implementation that ran.
		{"void flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<128, 64, 128, 4, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 4, cutlass::bfloat16_t> >, false, false, false, false, true, true, false, false>(Flash_fwd_params)", false, FamAttention, KernelFlashAttn},
		{"void flash_fwd_splitkv_combine_kernel<Flash_fwd_kernel_traits<128, 64, 128, 4, false, false, cutlass::bfloat16_t>, 4, 1, true>(Flash_fwd_params)", false, FamAttention, KernelFlashAttn},
		{"void cutlass::device_kernel<flash::enable_sm90_or_later<flash::FlashAttnFwdSm90<flash::CollectiveMainloopFwdSm90<2, cute::tuple<cute::C<1>, cute::C<1>, cute::C<1> >, cute::tuple<cute::C<128>, cute::C<128>, cute::C<128> >, 128, cutlass::bfloat16_t, float, cutlass::arch::Sm90, true, false, false, true, true, false, false, true, true, true, false, false>, flash::CollectiveEpilogueFwd<cute::tuple<cute::C<128>, cute::C<128>, cute::C<128> >, cute::tuple<cute::C<1>, cute::C<1>, cute::C<1> >, cutlass::bfloat16_t, cutlass::arch::Sm90, 256, true, true, false, false>, flash::VarlenDynamicPersistentTileScheduler<128, 256, 128, false, true, true> > > >(flash::FlashAttnFwdSm90<…>::Params)", false, FamAttention, KernelFlashAttn},
		{"kernel_cutlass_kernel_flash_attncuteflash_fwd_sm100FlashAttentionForwardSm100_object_at__tensor0000o11101213_0", false, FamAttention, KernelFlashAttn},
		{"void flashinfer::BatchPrefillWithPagedKVCacheKernel<flashinfer::KernelTraits<(flashinfer::MaskMode)1, 128u, 1u, 4u, 8u, 8u, 1u, 4u, (flashinfer::PosEncodingMode)0, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, float, int, DefaultAttention<false, false, false, false> >, flashinfer::BatchPrefillPagedParams<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, int> >(flashinfer::BatchPrefillPagedParams<…>, …)", false, FamAttention, KernelFlashInfer},
		{"void flashinfer::BatchDecodeWithPagedKVCacheKernel<(flashinfer::PosEncodingMode)0, 2u, 4u, 8u, 16u, 1u, 8u, DefaultAttention<false, false, false, false>, flashinfer::BatchDecodeParams<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, int> >(flashinfer::BatchDecodeParams<…>)", false, FamAttention, KernelFlashInfer},
		{"void flashinfer::BatchMLAPagedAttentionKernel<(flashinfer::MaskMode)1, 512u, 64u, 2u, 64u, 64u, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, int, flashinfer::MLAParams<…> >(…)", false, FamAttention, KernelFlashInferMLA},
		{"kernel_unified_attention_2d", false, FamAttention, KernelTriton},
		{"kernel_unified_attention_3d", false, FamAttention, KernelTriton},
		{"_fwd_grouped_kernel_stage1", false, FamAttention, KernelTriton},
		{"_fwd_kernel", false, FamAttention, KernelTriton},
		{"fmha_cutlassF_bf16_aligned_64x128_rf_sm80(PyTorchMemEffAttention::AttentionKernel<cutlass::bfloat16_t, cutlass::arch::Sm80, true, 64, 128, 128, true, true>::Params)", false, FamAttention, KernelXFormers},
		{"void vllm::paged_attention_v2_kernel<__nv_bfloat16, __nv_bfloat16, 128, 16, 128, (vllm::Fp8KVCacheDataType)0, false, 512>(float*, float*, __nv_bfloat16*, __nv_bfloat16 const*, __nv_bfloat16 const*, __nv_bfloat16 const*, int, float, int const*, int const*, int, float const*, int, int, int, float const*, float const*, int, int, int, int, float)", false, FamAttention, KernelPaged},
		{"void vllm::paged_attention_v1_kernel<c10::Half, c10::Half, 128, 16, 128, (vllm::Fp8KVCacheDataType)0, false>(c10::Half*, …)", false, FamAttention, KernelPaged},
		{"void paged_attention_ll4mi_QKV_mfma16_kernel<__hip_bfloat16, __hip_bfloat16, (vllm::Fp8KVCacheDataType)0, 16, 128, 256, true, 2>(…)", false, FamAttention, KernelRocmAttn},
		{"aiter::fmha_fwd_hd128_bf16_causal", false, FamAttention, KernelAiter},
		{"fmha_fwd_hd128_fp8_gfx950", false, FamAttention, KernelAiter},
		{"void ck_tile::kentry<64, 2, ck_tile::FmhaFwdKernel<ck_tile::BlockFmhaPipelineQRKSVSAsync<…> > >(…)", false, FamAttention, KernelAiter},
		{"mla_prefill_ps_asm_fwd", false, FamAttention, KernelAiterMLA},
		{"mla_reduce_v1", false, FamAttention, KernelAiterMLA},
		{"void flash::flash_fwd_splitkv_mla_kernel<Flash_fwd_kernel_traits_mla<576, 64, 64, 8, cutlass::bfloat16_t, 512>, true, SharedStorageMLA<…> >(Flash_fwd_mla_params)", false, FamAttention, KernelFlashMLA},
		{"void vllm::reshape_and_cache_flash_kernel<__nv_bfloat16, __nv_bfloat16, (vllm::Fp8KVCacheDataType)0>(…)", false, FamAttention, ""},
		{"void flashinfer::MergeStatesKernel<8u, 16u, 8u, 8u, __nv_bfloat16, __nv_bfloat16>(…)", false, FamAttention, KernelFlashInfer},
		// GEMM, incl. quantised.
		{"sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas", false, FamGemm, ""},
		{"nvjet_tst_192x192_64x4_2x1_v_bz_coopB_TNT", false, FamGemm, ""},
		{"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_32x4_nn_align1>(cutlass_80_tensorop_s1688gemm_64x64_32x4_nn_align1::Params)", false, FamGemm, ""},
		{"ampere_sgemm_128x128_tn", false, FamGemm, ""},
		{"volta_sgemm_128x32_nt", false, FamGemm, ""},
		{"void gemmk1_kernel<float, 256, 5, false, false, false, false, cublasGemvTensorStridedBatched<__half const>, cublasGemvTensorStridedBatched<__half const>, cublasGemvTensorStridedBatched<__half>, float, 0>(cublasGemmk1Params<float, …>)", false, FamGemm, ""},
		{"Cijk_Alik_Bljk_SB_Bias_AS_SAV_UserArgs_MT64x16x32_MI16x16x1_SN_LDSB0_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_EPS0_GRVWA2_GRVWB2_GSUAMB_ISA90a_IU1_K1_LBSPPA1", false, FamGemm, ""},
		{"void cutlass::device_kernel<vllm::enable_sm90_or_later<cutlass::gemm::kernel::GemmUniversal<cute::tuple<int, int, int, int>, cutlass::gemm::collective::CollectiveMma<…> > > >(…::Params)", false, FamGemm, ""},
		{"void marlin::Marlin<__nv_bfloat16, 4, 256, 1, 8, 8, true, 0>(int4 const*, int4 const*, int4*, int4*, int4 const*, int4 const*, int const*, int, int, int, int, int*, bool)", false, FamGemm, ""},
		{"machete::MacheteKernelTemplate<…>", false, FamGemm, ""},
		{"_w8a8_block_fp8_matmul", false, FamGemm, ""},
		{"void vllm::dynamic_scaled_fp8_quant_kernel<c10::BFloat16, c10::Float8_e4m3fn>(…)", false, FamGemm, ""},
		// MoE.
		{"fused_moe_kernel", false, FamMoE, ""},
		{"void vllm::moe::moe_align_block_size_kernel<int>(int const*, int*, int*, int*, int, int, int, int, unsigned long, int*)", false, FamMoE, ""},
		{"void vllm::moe::topkGatingSoftmax<4, 128, 4, 16, 32, int, float>(…)", false, FamMoE, ""},
		{"void marlin_moe::Marlin<…>(…)", false, FamMoE, ""},
		// Norm, rotary, activation, sampling.
		{"void vllm::rms_norm_kernel<c10::BFloat16, 16, 4>(c10::BFloat16*, c10::BFloat16 const*, long, c10::BFloat16 const*, float, int, int)", false, FamNorm, ""},
		{"void vllm::fused_add_rms_norm_kernel<c10::BFloat16, 8>(…)", false, FamNorm, ""},
		{"void flashinfer::norm::FusedAddRMSNormKernel<8u, __nv_bfloat16>(…)", false, FamNorm, ""},
		{"triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0", false, FamNorm, ""},
		{"void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>(int, float, float const*, float const*, float const*, float*, float*, float*)", false, FamNorm, ""},
		{"void vllm::rotary_embedding_kernel<c10::BFloat16, true>(long const*, c10::BFloat16*, c10::BFloat16*, c10::BFloat16 const*, int, long, long, int, int, int)", false, FamRotary, ""},
		{"void flashinfer::BatchQKApplyRotaryPosIdsCosSinCacheKernel<…>(…)", false, FamRotary, ""},
		{"void vllm::act_and_mul_kernel<c10::BFloat16, &(c10::BFloat16 vllm::silu_kernel<c10::BFloat16>(c10::BFloat16 const&)), true>(…)", false, FamElementwise, ""},
		{"triton_poi_fused_mul_silu_0", false, FamElementwise, ""},
		{"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)", false, FamElementwise, ""},
		{"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4> >(…)", false, FamElementwise, ""},
		{"void flashinfer::sampling::TopKTopPSamplingFromProbKernel<1024u, (cub::BlockScanAlgorithm)0, (cub::BlockReduceAlgorithm)2, 4u, false, float, int>(…)", false, FamSampling, ""},
		// Communication, copies.
		{"ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)", false, FamComm, ""},
		{"ncclDevKernel_AllGather_RING_LL(ncclDevComm*, unsigned long, ncclWork*)", false, FamComm, ""},
		{"void vllm::cross_device_reduce_1stage<__nv_bfloat16, 8>(vllm::RankData*, vllm::RankSignals, vllm::Signal*, __nv_bfloat16*, int, int)", false, FamComm, ""},
		{"Memcpy HtoD", false, FamMemcpy, ""},
		{"Memset", false, FamMemcpy, ""},
		// Ascend op types and aclnn kernel names.
		{"FlashAttentionScore", true, FamAttention, KernelAscend},
		{"aclnnFlashAttentionScore_FlashAttentionScore_FlashAttentionScore", true, FamAttention, KernelAscend},
		{"PagedAttention", true, FamAttention, KernelAscend},
		{"IncreFlashAttention", true, FamAttention, KernelAscend},
		{"FusedInferAttentionScore", true, FamAttention, KernelAscend},
		{"ReshapeAndCache", true, FamAttention, ""},
		{"MatMulV2", true, FamGemm, ""},
		{"aclnnMatmul_MatMulV3Common_MatMulV5", true, FamGemm, ""},
		{"QuantBatchMatmulV3", true, FamGemm, ""},
		{"GroupedMatmul", true, FamMoE, ""},
		{"MoeGatingTopKSoftmax", true, FamMoE, ""},
		{"RmsNorm", true, FamNorm, ""},
		{"AddRmsNorm", true, FamNorm, ""},
		{"RotaryMul", true, FamRotary, ""},
		{"SwiGlu", true, FamElementwise, ""},
		{"aclnnAdd_AddAiCore_Add", true, FamElementwise, ""},
		{"ZerosLike", true, FamElementwise, ""},
		{"hcom_broadcast_", true, FamComm, ""},
		{"hcom_allReduce_", true, FamComm, ""},
		{"ArgMaxV2", true, FamSampling, ""},
		{"PagedAttentionOperation", true, FamAttention, KernelAscend},
		{"SelfAttentionOperation", true, FamAttention, KernelAscend},
		{"RopeOperation", true, FamRotary, ""},
		{"LinearOperation", true, FamGemm, ""},
		{"ElewiseOperation", true, FamElementwise, ""},
		{"ActivationOperation", true, FamElementwise, ""},
		{"SoftmaxV2", true, FamElementwise, ""},
	}
	for _, c := range cases {
		if got := familyOf(c.name, c.ascend); got != c.fam {
			t.Errorf("familyOf(%.80q) = %s, want %s", c.name, got, c.fam)
		}
		if c.fam != FamAttention {
			continue
		}
		if got := implOf(c.name); got != c.impl {
			t.Errorf("implOf(%.80q) = %q, want %q", c.name, got, c.impl)
		}
	}
}

// Every fixture and testdata trace's family table adds up to its device time (Σ of the device
// ops) with shares summing to one; the tables themselves are pinned by TestGolden.
func TestFamiliesAddUp(t *testing.T) {
	files, _ := filepath.Glob(fixtures + "*.*")
	local, _ := filepath.Glob("testdata/*.*")
	for _, f := range append(files, local...) {
		if strings.HasSuffix(f, ".md") {
			continue
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			ev := parseFile(t, f)
			var sum, share, top float64
			for _, fs := range ev.Families {
				sum += fs.TimeUs
				share += fs.Share
			}
			for _, op := range ev.TopOps {
				top = max(top, op.TimeUs)
			}
			if len(ev.Families) == 0 {
				if len(ev.TopOps) > 0 {
					t.Fatalf("device ops but no families")
				}
				return
			}
			if math.Abs(sum-ev.DeviceTimeUs) > 1e-6*ev.DeviceTimeUs || math.Abs(share-1) > 1e-9 || top > ev.DeviceTimeUs {
				t.Errorf("families sum to %v us (shares %v), device time %v, largest op %v", sum, share, ev.DeviceTimeUs, top)
			}
		})
	}
}

// bigKineto is a synthetic Kineto trace of about size bytes (internal/kinetogen: the trace
// `make bench` times against its Python peers).
func bigKineto(size int) []byte {
	var b bytes.Buffer
	if err := kinetogen.Write(&b, int64(size)); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// BenchmarkParse100MB imports a 100 MB Kineto trace, families included; BenchmarkFamilies100MB
// times the family and kernel-path step alone on the same trace: the ratio of the two is what
// families add to the import.
func BenchmarkParse100MB(b *testing.B) {
	data := bigKineto(100 << 20)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	report := cputime.PerOp(b)
	for b.Loop() {
		if _, err := Parse("big.json", data, 0); err != nil {
			b.Fatal(err)
		}
	}
	report()
}

func BenchmarkFamilies100MB(b *testing.B) {
	data := bigKineto(100 << 20)
	p := &jparser{file: "big.json", data: data, procs: map[pkey]string{}, a: newAcc()}
	if err := p.root(0); err != nil {
		b.Fatal(err)
	}
	ev := p.reduce()
	if len(ev.Families) == 0 {
		b.Fatal("no families")
	}
	b.ResetTimer()
	for b.Loop() {
		p.a.families(false)
		p.a.kernelBackends(false)
	}
}
