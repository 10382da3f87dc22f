package demo

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// traceKind selects the kernel set and overhead pattern of a run-1 Kineto trace.
type traceKind int

const (
	traceFA       traceKind = iota // FLASH_ATTN split-KV kernels
	traceFI                        // FlashInfer, faster decode
	traceFIZero                    // FlashInfer, same attention time as FLASH_ATTN
	traceFIOffset                  // FlashInfer, faster prefill, host round trip per layer
	traceFIShort                   // FlashInfer on shorter prompts
	traceFIEaten                   // FlashInfer, faster attention eaten by a per-layer gather on the device
)

const (
	kRMS     = "void vllm::rms_norm_kernel<c10::BFloat16>(c10::BFloat16*, c10::BFloat16 const*, c10::BFloat16 const*, float, int, int)"
	kAddRMS  = "void vllm::fused_add_rms_norm_kernel<c10::BFloat16, 8>(c10::BFloat16*, c10::BFloat16*, c10::BFloat16 const*, float, int, int)"
	kGemm    = "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas"
	kGemmBig = "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize256x128x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas"
	kRope    = "void vllm::rotary_embedding_kernel<c10::BFloat16, true>(long const*, c10::BFloat16*, c10::BFloat16*, c10::BFloat16 const*, int, long, long, int, int, int)"
	kCache   = "void vllm::reshape_and_cache_flash_kernel<__nv_bfloat16, __nv_bfloat16, (vllm::Fp8KVCacheDataType)0>(__nv_bfloat16 const*, __nv_bfloat16 const*, __nv_bfloat16*, __nv_bfloat16*, long const*, int, int, int, int, int, int, float const*, float const*)"
	kFASplit = "void flash::flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<128, 64, 128, 4, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 4, cutlass::bfloat16_t> >, false, true, false, false, true, true, false, false>(flash::Flash_fwd_params)"
	kFAComb  = "void flash::flash_fwd_splitkv_combine_kernel<Flash_fwd_kernel_traits<128, 64, 128, 4, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 4, cutlass::bfloat16_t> >, 4, 3, true>(flash::Flash_fwd_params)"
	kFIPre   = "void flashinfer::BatchPrefillWithPagedKVCacheKernel<flashinfer::KernelTraits<(flashinfer::MaskMode)1, 128u, 1u, 4u, 8u, 8u, 1u, 4u, (flashinfer::PosEncodingMode)0, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, float, int, flashinfer::DefaultAttention<false, false, false, false> >, flashinfer::BatchPrefillPagedParams<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, int> >(flashinfer::BatchPrefillPagedParams<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, int>)"
	kFIDec   = "void flashinfer::BatchDecodeWithPagedKVCacheKernel<(flashinfer::PosEncodingMode)0, 2u, 4u, 8u, 16u, 1u, 8u, flashinfer::DefaultAttention<false, false, false, false>, flashinfer::BatchDecodeParams<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, int> >(flashinfer::BatchDecodeParams<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, int>)"
	kSilu    = "void vllm::act_and_mul_kernel<c10::BFloat16, &(c10::BFloat16 vllm::silu_kernel<c10::BFloat16>(c10::BFloat16 const&)), true>(c10::BFloat16*, c10::BFloat16 const*, int)"
	kArgmax  = "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::ArgMaxOps<float>, unsigned int, long, 4> >(at::native::ReduceOp<float, at::native::ArgMaxOps<float>, unsigned int, long, 4>)"
	kIndex   = "void at::native::index_elementwise_kernel<128, 4, at::native::gpu_index_kernel<at::native::index_kernel_impl<at::native::OpaqueType<4> >(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1}>(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>, at::native::index_kernel_impl<at::native::OpaqueType<4> >(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1} const&)::{lambda(int)#1}>(long, at::native::gpu_index_kernel<at::native::index_kernel_impl<at::native::OpaqueType<4> >(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1}>(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>, at::native::index_kernel_impl<at::native::OpaqueType<4> >(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1} const&)::{lambda(int)#1})"
	kFill    = "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<int>, std::array<char*, 1ul> >(int, at::native::FillFunctor<int>, std::array<char*, 1ul>)"
)

const (
	cbidLaunch = 211
	cbidMemcpy = 41
	cbidSync   = 131
	gpuStream  = 7
)

type kineto struct {
	b       strings.Builder
	n       int
	pid     int
	cpu     float64 // host clock, µs since baseTime
	gpu     float64 // device queue end
	corr    int
	ext     int
	rng     *rand.Rand
	gpuFrom float64 // first device start of the current step
}

func (k *kineto) ev(s string) {
	if k.n > 0 {
		k.b.WriteString(",\n")
	}
	k.n++
	k.b.WriteString("  {\n    " + s + "\n  }")
}

func us(v float64) string { return fmt.Sprintf("%.3f", v) }

func (k *kineto) jit(v float64) float64 { return v * (1 + 0.03*k.rng.NormFloat64()) }

// op emits cpu_op + cudaLaunchKernel + the kernel it enqueues.
func (k *kineto) op(cpuName, kernel string, durUs float64, grid [3]int, block int) {
	k.ext++
	k.corr++
	opStart := k.cpu
	launchStart := opStart + 2.1 + k.rng.Float64()
	launchDur := 4.2 + 2*k.rng.Float64()
	opEnd := launchStart + launchDur + 1.3
	kStart := max(k.gpu+1.2, launchStart+3.5)
	kDur := k.jit(durUs)
	k.ev(fmt.Sprintf(`"ph": "X", "cat": "cpu_op", "name": %s, "pid": %d, "tid": %d,
    "ts": %s, "dur": %s,
    "args": {
      "External id": %d, "Record function id": 0, "Ev Idx": %d
    }`, pyString(cpuName), k.pid, k.pid, us(opStart), us(opEnd-opStart), k.ext, k.ext))
	k.ev(fmt.Sprintf(`"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": %d, "tid": %d,
    "ts": %s, "dur": %s,
    "args": {
      "External id": %d, "cbid": %d, "correlation": %d
    }`, k.pid, k.pid, us(launchStart), us(launchDur), k.ext, cbidLaunch, k.corr))
	k.ev(fmt.Sprintf(`"ph": "X", "cat": "kernel", "name": %s, "pid": 0, "tid": %d,
    "ts": %s, "dur": %s,
    "args": {
      "External id": %d, "queued": 0, "device": 0, "context": 1, "stream": %d, "correlation": %d, "registers per thread": 128, "shared memory": 0, "blocks per SM": %s, "warps per SM": %s, "grid": [%d, %d, %d], "block": [%d, 1, 1], "est. achieved occupancy %%": 25
    }`, pyString(kernel), gpuStream, us(kStart), us(kDur), k.ext, gpuStream, k.corr,
		pyFloat(float64(grid[0]*grid[1]*grid[2])/132), pyFloat(float64(grid[0]*grid[1]*grid[2]*block/32)/132),
		grid[0], grid[1], grid[2], block))
	if k.gpuFrom < 0 {
		k.gpuFrom = kStart
	}
	k.gpu = kStart + kDur
	k.cpu = opEnd + 0.8 + k.rng.Float64()
}

// copy emits aten::copy_ + cudaMemcpyAsync + the memcpy. A pageable copy blocks the host
// until the device has reached and finished it.
func (k *kineto) copy(htod bool, bytes int) {
	k.ext++
	k.corr++
	name, cpuName := "Memcpy HtoD (Pageable -> Device)", "aten::copy_"
	if !htod {
		name, cpuName = "Memcpy DtoH (Device -> Pageable)", "aten::_local_scalar_dense"
	}
	opStart := k.cpu
	callStart := opStart + 3.4 + k.rng.Float64()
	mStart := max(k.gpu+1.5, callStart+6)
	mDur := 1.6 + float64(bytes)/20000 + 0.4*k.rng.Float64()
	callEnd := mStart + mDur + 2.2
	opEnd := callEnd + 1.5
	k.ev(fmt.Sprintf(`"ph": "X", "cat": "cpu_op", "name": %s, "pid": %d, "tid": %d,
    "ts": %s, "dur": %s,
    "args": {
      "External id": %d, "Record function id": 0, "Ev Idx": %d
    }`, pyString(cpuName), k.pid, k.pid, us(opStart), us(opEnd-opStart), k.ext, k.ext))
	k.ev(fmt.Sprintf(`"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": %d, "tid": %d,
    "ts": %s, "dur": %s,
    "args": {
      "External id": %d, "cbid": %d, "correlation": %d
    }`, k.pid, k.pid, us(callStart), us(callEnd-callStart), k.ext, cbidMemcpy, k.corr))
	k.ev(fmt.Sprintf(`"ph": "X", "cat": "gpu_memcpy", "name": %s, "pid": 0, "tid": %d,
    "ts": %s, "dur": %s,
    "args": {
      "External id": %d, "device": 0, "context": 1, "stream": %d, "correlation": %d, "bytes": %d, "memory bandwidth (GB/s)": %s
    }`, pyString(name), gpuStream, us(mStart), us(mDur), k.ext, gpuStream, k.corr, bytes,
		fmt.Sprintf("%.6f", float64(bytes)/(mDur*1000))))
	if k.gpuFrom < 0 {
		k.gpuFrom = mStart
	}
	k.gpu = mStart + mDur
	k.cpu = opEnd + 1 + k.rng.Float64()
}

// sync emits cudaStreamSynchronize, which returns once the device queue is empty.
func (k *kineto) sync() {
	k.corr++
	start := k.cpu
	end := max(k.gpu, start) + 2.5 + k.rng.Float64()
	k.ev(fmt.Sprintf(`"ph": "X", "cat": "cuda_runtime", "name": "cudaStreamSynchronize", "pid": %d, "tid": %d,
    "ts": %s, "dur": %s,
    "args": {
      "External id": %d, "cbid": %d, "correlation": %d
    }`, k.pid, k.pid, us(start), us(end-start), k.ext, cbidSync, k.corr))
	k.cpu = end + 1
}

type attnSet struct {
	names [2]string
	durs  [2]float64
}

func kinetoTrace(d *runData) string {
	a := d.a
	k := &kineto{rng: rand.New(rand.NewPCG(seedOf(a.folder(), "trace"), 1)), cpu: 1000}
	k.pid = 30000 + k.rng.IntN(30000)
	var at attnSet
	switch a.trace {
	case traceFA:
		at = attnSet{[2]string{kFASplit, kFAComb}, [2]float64{900, 120}}
	case traceFI:
		at = attnSet{[2]string{kFIPre, kFIDec}, [2]float64{250, 220}}
	case traceFIZero:
		at = attnSet{[2]string{kFIPre, kFIDec}, [2]float64{520, 500}}
	case traceFIOffset:
		at = attnSet{[2]string{kFIPre, kFIDec}, [2]float64{160, 560}}
	case traceFIShort:
		at = attnSet{[2]string{kFIPre, kFIDec}, [2]float64{130, 180}}
	case traceFIEaten:
		at = attnSet{[2]string{kFIPre, kFIDec}, [2]float64{300, 280}}
	}
	gemmF := 1.0
	if a.trace == traceFA && a.fallback {
		gemmF = 0.96
	}
	if a.oldEra {
		gemmF = 0.95
	}
	offset := a.trace == traceFIOffset || a.trace == traceFIEaten
	eaten := a.trace == traceFIEaten
	var header strings.Builder
	driver, runtime := 12040, 12090
	if a.oldEra {
		driver, runtime = 12060, 12010
	}
	baseNs := d.benchStart.Add(2e9).UnixNano()
	fmt.Fprintf(&header, `{
  "schemaVersion": 1,
  "deviceProperties": [
    {
      "id": 0, "name": %s, "totalGlobalMem": 85029158912,
      "computeMajor": 9, "computeMinor": 0,
      "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,
      "regsPerBlock": 65536, "warpSize": 32,
      "sharedMemPerBlock": 49152, "numSms": 132
    , "regsPerMultiprocessor": 65536, "sharedMemPerBlockOptin": 232448, "sharedMemPerMultiprocessor": 233472
    }
  ],
  "cuda_driver_version": %d,
  "cuda_runtime_version": %d,
  "cupti_version": 26,
  "with_stack": 0,
  "displayTimeUnit": "ms",
  "baseTimeNanoseconds": %d,
  "traceEvents": [
`, pyString(gpuName), driver, runtime, baseNs)

	k.ev(fmt.Sprintf(`"name": "process_name", "ph": "M", "ts": 1000.000, "pid": %d, "tid": 0,
    "args": {
      "name": "python3"
    }`, k.pid))
	k.ev(fmt.Sprintf(`"name": "thread_name", "ph": "M", "ts": 1000.000, "pid": %d, "tid": %d,
    "args": {
      "name": "thread %d (python3)"
    }`, k.pid, k.pid, k.pid))
	k.ev(`"name": "process_name", "ph": "M", "ts": 1000.000, "pid": 0, "tid": 0,
    "args": {
      "name": "GPU 0"
    }`)
	k.ev(fmt.Sprintf(`"name": "thread_name", "ph": "M", "ts": 1000.000, "pid": 0, "tid": %d,
    "args": {
      "name": "stream %d"
    }`, gpuStream, gpuStream))

	for step := 1; step <= 4; step++ {
		stepStart := k.cpu
		k.gpuFrom = -1
		startIdx := k.n
		_ = startIdx
		k.ext++
		stepExt := k.ext
		k.cpu += 18 + 6*k.rng.Float64() // scheduler and input preparation
		k.copy(true, 4096+16*k.rng.IntN(64))
		if offset {
			k.copy(true, 8192) // block tables
			k.copy(true, 2048) // sequence lengths
			k.copy(true, 1024) // routing metadata
		}
		k.op("_C::rms_norm", kRMS, 30, [3]int{16, 1, 1}, 256)
		for layer := 0; layer < 2; layer++ {
			k.op("aten::mm", kGemm, 700*gemmF, [3]int{48, 1, 1}, 384)
			k.op("_C::rotary_embedding", kRope, 28, [3]int{16, 1, 1}, 512)
			k.op("_C_cache_ops::reshape_and_cache_flash", kCache, 24, [3]int{16, 1, 1}, 512)
			if offset {
				gather, fill := 9.0, 4.0
				if eaten {
					gather, fill = 480, 60 // the gather runs over every block table on the device
				}
				k.op("aten::index_select", kIndex, gather, [3]int{8, 1, 1}, 128)
				k.op("aten::fill_", kFill, fill, [3]int{1, 1, 1}, 128)
				k.copy(false, 256)
				k.sync()
				k.cpu += 140 + 60*k.rng.Float64() // host rebuilds the plan before attention
			}
			k.op("vllm::unified_attention_with_output", at.names[0], at.durs[0], [3]int{32, 8, 1}, 128)
			k.op("vllm::unified_attention_with_output", at.names[1], at.durs[1], [3]int{32, 8, 1}, 128)
			k.op("aten::mm", kGemm, 550*gemmF, [3]int{32, 1, 1}, 384)
			k.op("_C::fused_add_rms_norm", kAddRMS, 32, [3]int{16, 1, 1}, 256)
			k.op("aten::mm", kGemmBig, 1700*gemmF, [3]int{112, 1, 1}, 384)
			k.op("_C::silu_and_mul", kSilu, 40, [3]int{16, 1, 1}, 1024)
			k.op("aten::mm", kGemm, 1150*gemmF, [3]int{32, 1, 1}, 384)
		}
		k.op("_C::fused_add_rms_norm", kAddRMS, 32, [3]int{16, 1, 1}, 256)
		k.op("aten::mm", kGemmBig, 480*gemmF, [3]int{128, 1, 1}, 384)
		k.op("aten::argmax", kArgmax, 22, [3]int{16, 1, 1}, 512)
		k.copy(false, 128)
		k.sync()
		stepEnd := k.cpu + 6
		name := fmt.Sprintf("ProfilerStep#%d", step)
		k.ev(fmt.Sprintf(`"ph": "X", "cat": "user_annotation", "name": %s, "pid": %d, "tid": %d,
    "ts": %s, "dur": %s,
    "args": {
      "External id": %d, "Record function id": 0, "Ev Idx": %d
    }`, pyString(name), k.pid, k.pid, us(stepStart), us(stepEnd-stepStart), stepExt, stepExt))
		k.ev(fmt.Sprintf(`"ph": "X", "cat": "gpu_user_annotation", "name": %s, "pid": 0, "tid": %d,
    "ts": %s, "dur": %s,
    "args": {
      "External id": %d
    }`, pyString(name), gpuStream, us(k.gpuFrom), us(k.gpu-k.gpuFrom), stepExt))
		k.cpu = stepEnd + 35 + 20*k.rng.Float64() // engine loop between steps
	}
	k.ev(fmt.Sprintf(`"name": "Record Window End", "ph": "i", "s": "g",
    "pid": "", "tid": "", "ts": %s`, us(k.cpu+10)))
	return header.String() + k.b.String() + fmt.Sprintf("\n  ],\n  \"traceName\": \"/tmp/vllm_profile/%s_%d.%d.pt.trace.json\"\n}", a.machine, k.pid, baseNs/1000000)
}
