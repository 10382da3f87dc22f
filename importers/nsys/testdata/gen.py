#!/usr/bin/env python3
"""Writes the SQL of the Nsight Systems exports the tests build (python3 gen.py).

Both imitate what `nsys export --type sqlite` writes (more-formats.md G3); the tables and
columns are those of the real exports' schemas, the rows a small LLM decode:

  export-2022.2/input.sql  Nsight Systems 2022.2.1.31, schema 2.9.1: EXPORT_META_DATA (with its
      misspelled EXPORT_OUTUPT_FILE), every table created even when empty, no ENUM_* tables,
      RUNTIME and MEMCPY with their `name` TEXT column, every runtime call listed twice under
      one correlationId (unsuffixed, eventClass 67; suffixed _vNNNN, eventClass 0). OPT-6.7B
      decode with HF transformers + xformers on one A100-SXM4-40GB, driver 510.47.03, 12
      NVTX ranges decode_step_0..11, an HtoD copy of the input ids, a DtoH copy of the token and
      a cudaStreamSynchronize per step.
  export-2024.5/input.sql  Nsight Systems 2024.5.1.113, schema 3.13.2 (as the real fixture):
      META_DATA_EXPORT, ENUM_* tables, greenContextId. vLLM decode on two H100 80GB HBM3
      (driver 550.54.15) replayed from CUDA graphs (graphNodeId set, one cudaGraphLaunch per
      step) with FlashAttention-2 split-KV kernels and NVTX ranges "execute_model" (no step
      number) around each step.
"""
import os

def q(s):
    return "NULL" if s is None else "'" + str(s).replace("'", "''") + "'"

class Strings:
    def __init__(self):
        self.ids = {}
    def id(self, s):
        if s not in self.ids:
            self.ids[s] = len(self.ids) + 1
        return self.ids[s]
    def sql(self):
        return "".join(f"INSERT INTO StringIds VALUES ({i}, {q(s)});\n" for s, i in self.ids.items())

def gpu_row(cols, vals):
    return f"INSERT INTO TARGET_INFO_GPU ({', '.join(cols)}) VALUES ({', '.join(q(v) if isinstance(v, str) else str(v) for v in vals)});\n"

KERNEL_COLS_COMMON = """    start INTEGER NOT NULL, "end" INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL,{green}
    streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER NOT NULL,
    shortName INTEGER NOT NULL, mangledName INTEGER, launchType INTEGER, cacheConfig INTEGER,
    registersPerThread INTEGER NOT NULL, gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL,
    blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL, staticSharedMemory INTEGER NOT NULL,
    dynamicSharedMemory INTEGER NOT NULL, localMemoryPerThread INTEGER NOT NULL, localMemoryTotal INTEGER NOT NULL,
    gridId INTEGER NOT NULL, sharedMemoryExecuted INTEGER, graphNodeId INTEGER, sharedMemoryLimitConfig INTEGER"""

def schema(v3):
    green = " greenContextId INTEGER," if v3 else ""
    name_col = "" if v3 else ", name TEXT"
    meta = "META_DATA_EXPORT" if v3 else "EXPORT_META_DATA"
    s = f"""CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE {meta} (name TEXT NOT NULL, value TEXT);
CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT);
CREATE TABLE TARGET_INFO_SYSTEM_ENV (globalVid INTEGER, devStateName TEXT NOT NULL, name TEXT NOT NULL, nameEnum INTEGER NOT NULL, value TEXT NOT NULL);
CREATE TABLE TARGET_INFO_GPU ({'vmId INTEGER NOT NULL, ' if v3 else ''}id INTEGER NOT NULL, name TEXT, busLocation TEXT, isDiscrete INTEGER, l2CacheSize INTEGER,
    totalMemory INTEGER, memoryBandwidth INTEGER, clockRate INTEGER, smCount INTEGER, pwGpuId INTEGER, uuid TEXT, luid INTEGER,
    chipName TEXT, cuDevice INTEGER, computeMajor INTEGER, computeMinor INTEGER);
CREATE TABLE TARGET_INFO_CUDA_STREAM (streamId INTEGER NOT NULL, hwId INTEGER NOT NULL, vmId INTEGER NOT NULL, processId INTEGER NOT NULL, contextId INTEGER NOT NULL, priority INTEGER NOT NULL, flag INTEGER NOT NULL);
CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);
CREATE TABLE ThreadNames (nameId INTEGER NOT NULL, priority INTEGER, globalTid INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (
{KERNEL_COLS_COMMON.format(green=green)});
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, "end" INTEGER NOT NULL, eventClass INTEGER NOT NULL, globalTid INTEGER,
    correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, callchainId INTEGER{name_col});
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, "end" INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL,{green}
    streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL,
    deprecatedSrcId INTEGER, srcKind INTEGER, dstKind INTEGER, srcDeviceId INTEGER, srcContextId INTEGER, dstDeviceId INTEGER,
    dstContextId INTEGER, migrationCause INTEGER, graphNodeId INTEGER{'' if v3 else ', name TEXT'}{', virtualAddress INTEGER' if v3 else ''});
CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start INTEGER NOT NULL, "end" INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL,{green}
    streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, syncType INTEGER NOT NULL, eventId INTEGER NOT NULL);
CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, "end" INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER, category INTEGER, color INTEGER,
    text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER, domainId INTEGER, uint64Value INTEGER, int64Value INTEGER,
    doubleValue REAL, uint32Value INTEGER, int32Value INTEGER, floatValue REAL, jsonTextId INTEGER, jsonText TEXT);
"""
    if not v3:
        # 2.x creates every table, the empty ones too.
        s += """CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER NOT NULL, "end" INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL,
    streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, value INTEGER NOT NULL, bytes INTEGER NOT NULL, graphNodeId INTEGER, memKind INTEGER);
CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS (start INTEGER NOT NULL, globalPid INTEGER, deviceId INTEGER, contextId INTEGER, address INTEGER, pc INTEGER, bytes INTEGER, memKind INTEGER, memoryOperationType INTEGER, name TEXT, correlationId INTEGER, localMemoryPoolAddress INTEGER, localMemoryPoolReleaseThreshold INTEGER, localMemoryPoolSize INTEGER, localMemoryPoolUtilizedSize INTEGER, importedMemoryPoolAddress INTEGER, importedMemoryPoolProcessId INTEGER);
CREATE TABLE CUDA_GRAPH_EVENTS (start INTEGER NOT NULL, "end" INTEGER NOT NULL, nameId INTEGER NOT NULL, globalTid INTEGER, graphId INTEGER, originalGraphNodeId INTEGER, graphNodeId INTEGER, correlationId INTEGER);
CREATE TABLE OSRT_API (start INTEGER NOT NULL, "end" INTEGER, eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, nestingLevel INTEGER, callchainId INTEGER);
CREATE TABLE SCHED_EVENTS (start INTEGER NOT NULL, cpu INTEGER NOT NULL, isSchedIn INTEGER NOT NULL, globalTid INTEGER, threadState INTEGER, threadBlock INTEGER);
CREATE TABLE CUBLAS_EVENTS (start INTEGER NOT NULL, "end" INTEGER NOT NULL, eventClass INTEGER NOT NULL, globalTid INTEGER, textId INTEGER);
CREATE TABLE CUDNN_EVENTS (start INTEGER NOT NULL, "end" INTEGER NOT NULL, eventClass INTEGER NOT NULL, globalTid INTEGER, textId INTEGER);
CREATE TABLE MPI_RANKS (globalTid INTEGER, rank INTEGER NOT NULL);
"""
    else:
        s += """CREATE TABLE ENUM_CUDA_MEMCPY_OPER (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL, label TEXT NOT NULL);
INSERT INTO ENUM_CUDA_MEMCPY_OPER VALUES (0,'CUDA_MEMCPY_KIND_UNKNOWN','Unknown'),(1,'CUDA_MEMCPY_KIND_HTOD','Host-to-Device'),(2,'CUDA_MEMCPY_KIND_DTOH','Device-to-Host'),(8,'CUDA_MEMCPY_KIND_DTOD','Device-to-Device'),(10,'CUDA_MEMCPY_KIND_PTOP','Peer-to-Peer');
CREATE TABLE ENUM_NSYS_EVENT_CLASS (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL, label TEXT NOT NULL);
INSERT INTO ENUM_NSYS_EVENT_CLASS VALUES (0,'TRACE_PROCESS_EVENT_CUDA_RUNTIME','CUDA runtime'),(1,'TRACE_PROCESS_EVENT_CUDA_DRIVER','CUDA driver');
CREATE TABLE ENUM_NSYS_EVENT_TYPE (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL, label TEXT NOT NULL);
INSERT INTO ENUM_NSYS_EVENT_TYPE VALUES (34,'NvtxMark','NvtxMark'),(59,'NvtxPushPopRange','NvtxPushPopRange'),(60,'NvtxStartEndRange','NvtxStartEndRange');
CREATE TABLE ENUM_CUPTI_SYNC_TYPE (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL, label TEXT NOT NULL);
INSERT INTO ENUM_CUPTI_SYNC_TYPE VALUES (0,'UNKNOWN','Unknown'),(1,'EVENT_SYNCHRONIZE','Event sync'),(2,'STREAM_WAIT_EVENT','Stream wait event'),(3,'STREAM_SYNCHRONIZE','Stream sync'),(4,'CONTEXT_SYNCHRONIZE','Context sync');
"""
    return s

def build(v3):
    S = Strings()
    out = ["BEGIN;\n", schema(v3)]
    pid = 23741 if not v3 else 61207
    gpid = pid << 24  # serialized GlobalId: the pid in bits 24..47
    gtid = gpid | pid  # the main thread
    kernels, runtime, memcpy, syncs, nvtx = [], [], [], [], []
    corr = [1000]
    def call(name, version, s, e, eclass0=True):
        corr[0] += 1
        c = corr[0]
        if not v3:
            # 2.x lists the call twice: unsuffixed (eventClass 67), then suffixed (eventClass 0).
            runtime.append((s, e, 67, gtid, c, S.id(name), 0, "NULL"))
        runtime.append((s, e, 0, gtid, c, S.id(f"{name}_v{version}"), 0, "NULL"))
        return c
    if not v3:
        meta = [("EXPORT_PRODUCT_NAME", "NVIDIA Nsight Systems"), ("EXPORT_PRODUCT_VERSION", "2022.2.1.31-5fe97ab"),
                ("EXPORT_PRODUCT_DATE", "2022.2"), ("EXPORT_SCHEMA_VERSION", "2.9.1"), ("EXPORT_SCHEMA_VERSION_MAJOR", "2"),
                ("EXPORT_SCHEMA_VERSION_MINOR", "9"), ("EXPORT_SCHEMA_VERSION_MICRO", "1"), ("EXPORT_PLATFORM", "linux-desktop-glibc_2_11_3"),
                ("EXPORT_ARCH", "x64"), ("EXPORT_TIME_UTC", "2022-06-14T09:41:12"), ("EXPORT_HOST", "gpu-node-03"),
                ("EXPORT_PARAM_INPUT_FILE", "opt67b_decode.qdrep"), ("EXPORT_OUTUPT_FILE", "opt67b_decode.sqlite"),
                ("EXPORT_PARAM_OVERWRITE", "true"), ("EXPORT_TIME", "0.48 sec")]
        gpus = [(0, "NVIDIA A100-SXM4-40GB", "0000:07:00.0", 1, 41943040, 42505273344, 1555200000000, 1410000000, 108, 0, "GPU-5c1e0f3a-44d1-8f61-aa1d-9b3f0c4e2a17", 0, "GA100", 0, 8, 0)]
        cols = ["id", "name", "busLocation", "isDiscrete", "l2CacheSize", "totalMemory", "memoryBandwidth", "clockRate", "smCount", "pwGpuId", "uuid", "luid", "chipName", "cuDevice", "computeMajor", "computeMinor"]
        driver, cuda = "51004703", "11060"  # NvDriverVersion: major*100000 + minor*100 + patch
        t0 = 1_180_000_000
        steps = 12
        layers = 4
        step_kernels = []
        for l in range(layers):
            step_kernels += [
                ("void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::Half, float>(int, float, c10::Half const*, c10::Half const*, c10::Half const*, float*, float*, c10::Half*)", "vectorized_layer_norm_kernel", 9_800),
                ("ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_tn", "ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_tn", 61_400),
                ("fmha_cutlassF_f16_aligned_64x128_rf_sm80(PyTorchMemEffAttention::AttentionKernel<cutlass::half_t, cutlass::arch::Sm80, true, 64, 128, 128, true, true>::Params)", "fmha_cutlassF_f16_aligned_64x128_rf_sm80", 44_700),
                ("ampere_fp16_s16816gemm_fp16_64x64_sliced1x2_ldg8_f2f_stages_64x5_tn", "ampere_fp16_s16816gemm_fp16_64x64_sliced1x2_ldg8_f2f_stages_64x5_tn", 23_900),
                ("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::Half>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<c10::Half>, at::detail::Array<char*, 3>)", "vectorized_elementwise_kernel", 4_300),
                ("ampere_fp16_s16816gemm_fp16_128x256_ldg8_f2f_stages_64x3_tn", "ampere_fp16_s16816gemm_fp16_128x256_ldg8_f2f_stages_64x3_tn", 118_600),
                ("void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#8}::operator()() const::{lambda(c10::Half)#1}, at::detail::Array<char*, 2> >(int, c10::Half, at::detail::Array<char*, 2>)", "vectorized_elementwise_kernel", 5_100),
                ("ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_tn", "ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_tn", 117_900),
            ]
        step_kernels += [
            ("ampere_fp16_s16816gemm_fp16_256x128_ldg8_f2f_stages_64x3_tn", "ampere_fp16_s16816gemm_fp16_256x128_ldg8_f2f_stages_64x3_tn", 402_300),
            ("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<c10::Half, at::native::ArgMaxOps<c10::Half>, unsigned int, long, 4> >(at::native::ReduceOp<c10::Half, at::native::ArgMaxOps<c10::Half>, unsigned int, long, 4>)", "reduce_kernel", 12_600),
        ]
        t = t0
        for st in range(steps):
            s0 = t
            # input ids to the device (pageable, 8 B per token of a batch of 16)
            c = call("cudaMemcpyAsync", 3020, t, t + 14_000)
            memcpy.append((t + 15_000, t + 17_200, 0, 1, 7, c, gpid, 128, 1, "NULL", 0, 2, "NULL", "NULL", "NULL", "NULL", "NULL", "NULL"))
            t += 20_000
            dev = t + 30_000
            for (full, short, d) in step_kernels:
                c = call("cudaLaunchKernel", 7000, t, t + 6_500)
                dev = max(dev, t + 9_000)
                kernels.append((dev, dev + d, 0, 1, 7, c, gpid, S.id(full), S.id(short), "NULL", 1, 0, 128, 80, 1, 1, 128, 1, 1, 0, 49152, 0, 0, 0, "NULL", "NULL", 0))
                dev += d + 3_800
                t += 8_200
            # the sampled token back to the host, then a blocking sync
            c = call("cudaMemcpyAsync", 3020, t, t + 9_000)
            memcpy.append((dev + 2_000, dev + 4_100, 0, 1, 7, c, gpid, 128, 2, "NULL", 2, 0, "NULL", "NULL", "NULL", "NULL", "NULL", "NULL"))
            c = call("cudaStreamSynchronize", 3020, t + 10_000, dev + 6_000)
            syncs.append((dev + 4_200, dev + 5_900, 0, 1, 7, c, gpid, 3, 0))
            t = dev + 9_000
            nvtx.append((s0, t, 59, "NULL", "NULL", "NULL", f"decode_step_{st}", gtid, "NULL", "NULL", 0))
            t += 140_000  # the Python loop between steps
        proc_name = "python3"
    else:
        meta = [("EXPORT_PRODUCT_NAME", "NVIDIA Nsight Systems"), ("EXPORT_PRODUCT_VERSION", "2024.5.1.113"),
                ("EXPORT_PRODUCT_DATE", "2024.5"), ("EXPORT_SCHEMA_VERSION", "3.13.2"), ("EXPORT_SCHEMA_VERSION_MAJOR", "3"),
                ("EXPORT_SCHEMA_VERSION_MINOR", "13"), ("EXPORT_SCHEMA_VERSION_MICRO", "2"), ("EXPORT_PLATFORM", "linux-desktop-glibc_2_17"),
                ("EXPORT_ARCH", "x64"), ("EXPORT_TIME_UTC", "2025-03-02T11:05:44"), ("EXPORT_PARAM_INPUT_FILE", "vllm_decode.nsys-rep"),
                ("EXPORT_PARAM_OUTPUT_FILE", "vllm_decode.sqlite"), ("EXPORT_TIME", "0.21 sec")]
        gpus = [(281474976710656, i, "NVIDIA H100 80GB HBM3", f"0000:{b}:00.0", 1, 52428800, 85045460992, 3352320000000, 1980000000, 132, 0, f"GPU-8f2d1c4e-{i}a7b-4c3d-9e1f-2b6a8d0c{i}f41", 0, "GH100", i, 9, 0)
                for i, b in ((0, "18"), (1, "2a"))]
        cols = ["vmId", "id", "name", "busLocation", "isDiscrete", "l2CacheSize", "totalMemory", "memoryBandwidth", "clockRate", "smCount", "pwGpuId", "uuid", "luid", "chipName", "cuDevice", "computeMajor", "computeMinor"]
        driver, cuda = "55005415", "12040"
        t0 = 2_400_000_000
        steps = 10
        graph_kernels = []
        for l in range(3):
            graph_kernels += [
                ("void vllm::rms_norm_kernel<c10::BFloat16, 8, 4>(c10::BFloat16*, c10::BFloat16 const*, long, c10::BFloat16 const*, float, int, int)", "rms_norm_kernel", 3_100),
                ("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas", "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas", 21_400),
                ("void vllm::rotary_embedding_kernel<c10::BFloat16, true>(long const*, c10::BFloat16*, c10::BFloat16*, c10::BFloat16 const*, int, long, long, int, int, int)", "rotary_embedding_kernel", 2_200),
                ("void vllm::reshape_and_cache_flash_kernel<__nv_bfloat16, __nv_bfloat16, (vllm::Fp8KVCacheDataType)0>(__nv_bfloat16 const*, __nv_bfloat16 const*, __nv_bfloat16*, __nv_bfloat16*, long const*, int, int, int, int, int, int, float const*, float const*)", "reshape_and_cache_flash_kernel", 1_900),
                ("void flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<128, 64, 128, 4, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 4, cutlass::bfloat16_t> >, false, true, false, false, true, false, false, false>(Flash_fwd_params)", "flash_fwd_splitkv_kernel", 18_700),
                ("void flash_fwd_splitkv_combine_kernel<Flash_fwd_kernel_traits<128, 64, 128, 4, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 4, cutlass::bfloat16_t> >, 4, 3, true>(Flash_fwd_params)", "flash_fwd_splitkv_combine_kernel", 2_600),
                ("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas", "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas", 9_800),
                ("void vllm::act_and_mul_kernel<c10::BFloat16, &(c10::BFloat16 vllm::silu_kernel<c10::BFloat16>(c10::BFloat16 const&)), true>(c10::BFloat16*, c10::BFloat16 const*, int)", "act_and_mul_kernel", 3_900),
                ("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas", "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas", 44_100),
                ("void cross_device_reduce_1stage<__nv_bfloat16, 2>(vllm::RankData*, vllm::RankSignals, vllm::Signal*, __nv_bfloat16*, int, int)", "cross_device_reduce_1stage", 6_300),
            ]
        eager = [
            ("void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, at::native::(anonymous namespace)::SoftMaxForwardEpilogue>(float*, float const*, int)", "cunn_SoftMaxForward", 7_700),
            ("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::ArgMaxOps<float>, unsigned int, long, 4> >(at::native::ReduceOp<float, at::native::ArgMaxOps<float>, unsigned int, long, 4>)", "reduce_kernel", 5_400),
        ]
        t = t0
        node = 1
        for st in range(steps):
            s0 = t
            for dev_id in (0, 1):
                c = call("cudaMemcpyAsync", 3020, t, t + 11_000)
                memcpy.append((t + 12_000, t + 13_500, dev_id, 1, "NULL", 7, c, gpid, 256, 1, "NULL", 1, 2, "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL"))
                t += 13_000
            c = call("cudaGraphLaunch", 10000, t, t + 18_000)
            for dev_id in (0, 1):
                dev = t + 21_000
                for i, (full, short, d) in enumerate(graph_kernels):
                    kernels.append((dev, dev + d, dev_id, 1, "NULL", 13, c, gpid, S.id(full), S.id(short), "NULL", 1, 0, 128, 132, 1, 1, 128, 1, 1, 0, 0, 0, 0, 0, 0, node + i, 0))
                    dev += d + 1_100
            node += len(graph_kernels)
            t = dev
            for (full, short, d) in eager:
                c = call("cudaLaunchKernel", 7000, t, t + 4_800)
                kernels.append((t + 7_000, t + 7_000 + d, 0, 1, "NULL", 7, c, gpid, S.id(full), S.id(short), "NULL", 1, 0, 64, 1, 1, 1, 512, 1, 1, 0, 0, 0, 0, 0, 0, "NULL", 0))
                t += 7_000 + d + 600
            c = call("cudaMemcpyAsync", 3020, t, t + 8_000)
            memcpy.append((t + 1_500, t + 2_700, 0, 1, "NULL", 7, c, gpid, 64, 2, "NULL", 2, 0, "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL"))
            c = call("cudaStreamSynchronize", 3020, t + 8_500, t + 12_500)
            syncs.append((t + 8_600, t + 12_400, 0, 1, "NULL", 7, c, gpid, 3, 0))
            t += 13_000
            nvtx.append((s0, t, 59, "NULL", "NULL", "NULL", "execute_model", gtid, "NULL", "NULL", 0))
            t += 60_000  # the scheduler between steps
        proc_name = "VLLM::EngineCore"
    out.append("".join(f"INSERT INTO {'META_DATA_EXPORT' if v3 else 'EXPORT_META_DATA'} VALUES ({q(k)}, {q(v)});\n" for k, v in meta))
    out.append(f"INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES ({1655199600123456789 if not v3 else 1740913544987654321}, NULL, NULL);\n")
    out.append(f"INSERT INTO TARGET_INFO_SYSTEM_ENV VALUES (281474976710656, 'Local (CLI)', 'NvDriverVersion', 205, {q(driver)});\n")
    out.append(f"INSERT INTO TARGET_INFO_SYSTEM_ENV VALUES (281474976710656, 'Local (CLI)', 'CudaDriverVersion', 611, {q(cuda)});\n")
    out.append("".join(gpu_row(cols, g) for g in gpus))
    out.append(f"INSERT INTO PROCESSES VALUES ({gpid}, {pid}, {q(proc_name)});\n")
    def vals(row):
        return ", ".join(str(v) if not isinstance(v, str) or v == "NULL" else q(v) for v in row)
    for r in kernels:
        out.append(f"INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES ({vals(r)});\n")
    for r in runtime:
        extra = "" if v3 else ", NULL"
        out.append(f"INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES ({vals(r)}{extra});\n")
    for r in memcpy:
        extra = "" if v3 else ", NULL"
        out.append(f"INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES ({vals(r)}{extra});\n")
    for r in syncs:
        out.append(f"INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES ({vals(r)});\n")
    for r in nvtx:
        out.append(f"INSERT INTO NVTX_EVENTS (start, \"end\", eventType, rangeId, category, color, text, globalTid, endGlobalTid, textId, domainId) VALUES ({vals(r)});\n")
    out.insert(2, S.sql())
    out.append("COMMIT;\n")
    return "".join(out)

here = os.path.dirname(os.path.abspath(__file__))
for name, v3 in (("export-2022.2", False), ("export-2024.5", True)):
    os.makedirs(os.path.join(here, name), exist_ok=True)
    with open(os.path.join(here, name, "input.sql"), "w") as f:
        f.write(build(v3))
