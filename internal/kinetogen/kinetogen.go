// Package kinetogen writes large synthetic PyTorch profiler (Kineto) Chrome traces for the trace
// import benchmarks: BenchmarkParse100MB and `make bench` (scripts/gentrace) read the same bytes.
//
// The layout is the one Kineto's ChromeTraceLogger writes (one event per indented block, "ph"
// first, args on their own lines, the metadata events after the activities), and the mix of
// events follows a real inference trace (testdata/fixtures/traces/hta_trace_diff_control.json.gz:
// 37 % cpu_op, 23 % cuda_runtime, 31 % flow events, 8 % kernels, then copies, memsets and
// ProfilerStep annotations): per decode step, real vLLM / FlashAttention / cuBLAS kernel names,
// each behind its aten op and launch, a host-to-device copy of the inputs, a device-to-host copy
// of the sampled tokens and the stream sync that waits for it. The output is deterministic.
package kinetogen

import (
	"bufio"
	"fmt"
	"io"
)

// kernels are the device kernels of one decode step, with the aten op that launches each.
var kernels = []struct{ op, name string }{
	{"_C::rms_norm", "void vllm::rms_norm_kernel<c10::BFloat16, 16, 4>(c10::BFloat16*, c10::BFloat16 const*, long, c10::BFloat16 const*, float, int, int)"},
	{"aten::mm", "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas"},
	{"_C::rotary_embedding", "void vllm::rotary_embedding_kernel<c10::BFloat16, true>(long const*, c10::BFloat16*, c10::BFloat16*, c10::BFloat16 const*, int, long, long, int, int, int)"},
	{"_C_cache_ops::reshape_and_cache_flash", "void vllm::reshape_and_cache_flash_kernel<__nv_bfloat16, __nv_bfloat16, (vllm::Fp8KVCacheDataType)0>(__nv_bfloat16 const*, __nv_bfloat16 const*, __nv_bfloat16*, __nv_bfloat16*, long const*, long, long, long, long, int, int, int, float const*, float const*)"},
	{"vllm::unified_attention_with_output", "void flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<128, 64, 128, 4, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 4, cutlass::bfloat16_t> >, false, false, false, false, true, true, false, false>(Flash_fwd_params)"},
	{"aten::mm", "nvjet_tst_192x192_64x4_2x1_v_bz_coopB_TNT"},
	{"_C::fused_add_rms_norm", "void vllm::fused_add_rms_norm_kernel<c10::BFloat16, 8>(c10::BFloat16*, c10::BFloat16*, c10::BFloat16 const*, float, int, int)"},
	{"aten::mm", "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize256x128x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas"},
	{"_C::silu_and_mul", "void vllm::act_and_mul_kernel<c10::BFloat16, &(c10::BFloat16 vllm::silu_kernel<c10::BFloat16>(c10::BFloat16 const&)), true>(c10::BFloat16*, c10::BFloat16 const*, int)"},
	{"aten::add", "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, at::detail::Array<char*, 3>)"},
}

// sampler runs once per step, after the layers.
const sampler = "void flashinfer::sampling::TopKTopPSamplingFromProbKernel<1024u, (cub::BlockScanAlgorithm)0, (cub::BlockReduceAlgorithm)2, 4u, false, float, int>(float*, int*, float*, int*, float*, int*, float*, unsigned int, unsigned int, unsigned long, unsigned long)"

// layers is how many times a step runs the kernels list.
const layers = 4

const (
	hostPid = 3113936
	hostTid = 3113936
	stream  = 7
)

type writer struct {
	w    *bufio.Writer
	n    int64 // bytes written
	ev   int   // events written
	ext  int   // External id / correlation
	cpu  int64 // host clock, ns
	gpu  int64 // end of the device queue, ns
	seed uint64
}

// jitter is a deterministic pseudo-random fraction in [0, 1) (SplitMix64).
func (g *writer) jitter() float64 {
	g.seed += 0x9e3779b97f4a7c15
	z := g.seed
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	return float64(z>>11) / (1 << 53)
}

func (g *writer) printf(format string, a ...any) {
	n, _ := fmt.Fprintf(g.w, format, a...)
	g.n += int64(n)
}

// event writes one event body (without its braces), comma-separated from the one before.
func (g *writer) event(format string, a ...any) {
	if g.ev > 0 {
		g.printf(",\n")
	}
	g.ev++
	g.printf("  {\n    "+format+"\n  }", a...)
}

// us formats ns as Kineto's µs with three decimals.
func us(ns int64) string { return fmt.Sprintf("%d.%03d", ns/1000, ns%1000) }

// op writes an aten op, its launch, the flow between them and the kernel it enqueues.
func (g *writer) op(opName, kernel string, durNs int64) {
	g.ext++
	id := g.ext
	start := g.cpu
	launch := start + 2100 + int64(1000*g.jitter())
	launchDur := 4200 + int64(2000*g.jitter())
	end := launch + launchDur + 1300
	kStart := max(g.gpu+1200, launch+3500)
	kDur := durNs + int64(float64(durNs)*0.06*(g.jitter()-0.5))
	g.event(`"ph": "X", "cat": "cpu_op", "name": "%s", "pid": %d, "tid": %d,
    "ts": %s, "dur": %s,
    "args": {
      "External id": %d,
      "Record function id": 0, "Concrete Inputs": ["", "", ""], "Input type": ["c10::BFloat16", "c10::BFloat16", ""], "Input Strides": [[4096, 1], [1, 4096], []], "Input Dims": [[256, 4096], [4096, 4096], []], "Ev Idx": %d
    }`, opName, hostPid, hostTid, us(start), us(end-start), id, id)
	g.event(`"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": %d, "tid": %d,
    "ts": %s, "dur": %s,
    "args": {
      "External id": %d,
      "cbid": 211, "correlation": %d
    }`, hostPid, hostTid, us(launch), us(launchDur), id, id)
	g.event(`"ph": "s", "id": %d, "pid": %d, "tid": %d, "ts": %s,
    "cat": "ac2g", "name": "ac2g"`, id, hostPid, hostTid, us(launch))
	g.event(`"ph": "X", "cat": "kernel", "name": "%s", "pid": 0, "tid": %d,
    "ts": %s, "dur": %s,
    "args": {
      "External id": %d,
      "queued": 0, "device": 0, "context": 1,
      "stream": %d, "correlation": %d,
      "registers per thread": 128,
      "shared memory": 0,
      "blocks per SM": 1,
      "warps per SM": 4,
      "grid": [132, 1, 1],
      "block": [128, 1, 1],
      "est. achieved occupancy %%": 6
    }`, kernel, stream, us(kStart), us(kDur), id, stream, id)
	g.event(`"ph": "f", "id": %d, "pid": 0, "tid": %d, "ts": %s,
    "cat": "ac2g", "name": "ac2g", "bp": "e"`, id, stream, us(kStart))
	g.gpu = kStart + kDur
	g.cpu = end + 800 + int64(1000*g.jitter())
}

// copy writes a copy with its runtime call; a pageable device-to-host copy is followed by the
// stream sync that waits for it.
func (g *writer) copy(htod bool, bytes int) {
	g.ext++
	id := g.ext
	name := "Memcpy HtoD (Pageable -> Device)"
	if !htod {
		name = "Memcpy DtoH (Device -> Pageable)"
	}
	call := g.cpu + 3400
	mStart := max(g.gpu+1500, call+6000)
	mDur := int64(1600 + bytes/20)
	callEnd := mStart + mDur + 2200
	g.event(`"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": %d, "tid": %d,
    "ts": %s, "dur": %s,
    "args": {
      "External id": %d,
      "cbid": 41, "correlation": %d
    }`, hostPid, hostTid, us(call), us(callEnd-call), id, id)
	g.event(`"ph": "X", "cat": "gpu_memcpy", "name": "%s", "pid": 0, "tid": %d,
    "ts": %s, "dur": %s,
    "args": {
      "External id": %d,
      "device": 0, "context": 1,
      "stream": %d, "correlation": %d,
      "bytes": %d, "memory bandwidth (GB/s)": %.6f
    }`, name, stream, us(mStart), us(mDur), id, stream, id, bytes, float64(bytes)/float64(mDur))
	g.gpu = mStart + mDur
	g.cpu = callEnd + 1000
	if htod {
		return
	}
	g.ext++
	end := max(g.gpu, g.cpu) + 2500
	g.event(`"ph": "X", "cat": "cuda_runtime", "name": "cudaStreamSynchronize", "pid": %d, "tid": %d,
    "ts": %s, "dur": %s,
    "args": {
      "External id": %d,
      "cbid": 131, "correlation": %d
    }`, hostPid, hostTid, us(g.cpu), us(end-g.cpu), g.ext, g.ext)
	g.cpu = end + 1000
}

// step writes one decode step and its ProfilerStep annotations (host and device).
func (g *writer) step(n int) {
	g.ext++
	id := g.ext
	cpuStart := g.cpu
	g.cpu += 18000
	g.copy(true, 4096)
	gpuStart := g.gpu + 1500
	for range layers {
		for i, k := range kernels {
			g.op(k.op, k.name, int64(20000+i*37000))
		}
	}
	g.op("aten::sampling", sampler, 22000)
	g.copy(false, 256)
	cpuEnd := g.cpu + 6000
	g.event(`"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d", "pid": %d, "tid": %d,
    "ts": %s, "dur": %s,
    "args": {
      "External id": %d,
      "Record function id": 0, "Ev Idx": %d
    }`, n, hostPid, hostTid, us(cpuStart), us(cpuEnd-cpuStart), id, id)
	g.event(`"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#%d", "pid": 0, "tid": %d,
    "ts": %s, "dur": %s,
    "args": {
      "External id": %d
    }`, n, stream, us(gpuStart), us(g.gpu-gpuStart), id)
	g.cpu = cpuEnd + 35000
}

// Write writes a trace of at least size bytes (whole steps) to w.
func Write(w io.Writer, size int64) error {
	g := &writer{w: bufio.NewWriterSize(w, 1<<20), cpu: 1_700_000_000_000_000, seed: 1}
	g.gpu = g.cpu
	g.printf(`{
  "schemaVersion": 1,
  "deviceProperties": [
    {
      "id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85029158912,
      "computeMajor": 9, "computeMinor": 0,
      "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,
      "regsPerBlock": 65536, "regsPerMultiprocessor": 65536, "warpSize": 32,
      "sharedMemPerBlock": 49152, "sharedMemPerMultiprocessor": 233472,
      "numSms": 132, "sharedMemPerBlockOptin": 232448
    }
  ],
  "cupti_version": 24,
  "cuda_runtime_version": 12080,
  "cuda_driver_version": 12080,
  "with_stack": 0,
  "displayTimeUnit": "ms",
  "baseTimeNanoseconds": 1700000000000000000,
  "traceEvents": [
`)
	for n := 1; g.n < size; n++ {
		g.step(n)
	}
	g.event(`"name": "process_name", "ph": "M", "ts": %s, "pid": %d, "tid": 0,
    "args": {
      "name": "python3"
    }`, us(g.cpu), hostPid)
	g.event(`"name": "thread_name", "ph": "M", "ts": %s, "pid": %d, "tid": %d,
    "args": {
      "name": "thread %d (python3)"
    }`, us(g.cpu), hostPid, hostTid, hostTid)
	g.event(`"name": "process_name", "ph": "M", "ts": %s, "pid": 0, "tid": 0,
    "args": {
      "name": "GPU 0"
    }`, us(g.cpu))
	g.event(`"name": "thread_name", "ph": "M", "ts": %s, "pid": 0, "tid": %d,
    "args": {
      "name": "stream %d"
    }`, us(g.cpu), stream, stream)
	g.event(`"name": "Record Window End", "ph": "i", "s": "g",
    "pid": "", "tid": "", "ts": %s`, us(g.cpu+10000))
	g.printf("\n  ],\n  \"traceName\": \"/tmp/vllm_profile/bench.pt.trace.json\"\n}\n")
	return g.w.Flush()
}
