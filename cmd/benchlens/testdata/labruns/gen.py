"""Writes the lab layouts of this folder (see README.md): python3 gen.py. Deterministic."""
import json, os, random, shutil
ROOT = os.path.dirname(os.path.abspath(__file__))
for d in ('five-shapes', 'aiperf-hicache', 'phase-list', 'prefix-caching'):
    shutil.rmtree(os.path.join(ROOT, d), ignore_errors=True)
def w(path, text):
    p = os.path.join(ROOT, path); os.makedirs(os.path.dirname(p), exist_ok=True)
    open(p, 'w').write(text)
def wj(path, obj, indent=None):
    w(path, json.dumps(obj, indent=indent))
rng = random.Random(22)

FINGER = """stack_fingerprint: {base_stack_version: "CUDA 12.8, torch 2.8.0", driver_version: "570.133.20"}
hardware_sku: "H100 80GB HBM3 x1"
node: {machine: lab-h100-02, numa: 0, card_slot: 1}
"""

# vllm bench serve (vLLM 0.10-0.11), summary only (no --save-detailed)
def vllm(date, model, n, conc, ins, outs, ttft, tpot, dur=None):
    itl = tpot * 0.98
    e2e = ttft + tpot * (outs - 1)
    dur = dur or n * e2e / conc / 1000
    o = {"date": date, "endpoint_type": "vllm", "backend": "vllm", "label": None, "model_id": model,
         "tokenizer_id": model, "num_prompts": n, "request_rate": "inf", "burstiness": 1.0, "max_concurrency": conc,
         "duration": round(dur, 6), "completed": n, "failed": 0, "total_input_tokens": n * ins, "total_output_tokens": n * outs,
         "request_throughput": n / dur, "request_goodput": None, "output_throughput": n * outs / dur,
         "total_token_throughput": n * (ins + outs) / dur, "max_output_tokens_per_s": 1.2 * n * outs / dur,
         "max_concurrent_requests": conc}
    for m, v in (("ttft", ttft), ("tpot", tpot), ("itl", itl)):
        o["mean_%s_ms" % m] = v * 1.03; o["median_%s_ms" % m] = v; o["std_%s_ms" % m] = v * 0.08; o["p99_%s_ms" % m] = v * 1.6
    return o

# ---- A: five shapes, summary only, against a ShareGPT run ----------------------------------
model = "meta-llama/Llama-3.1-8B-Instruct"
shapes = [(1000, 1000), (2000, 1000), (5000, 1000), (10000, 1000), (30000, 100)]
w("five-shapes/bundle.yaml", FINGER + 'workload: {model_name: meta-llama/Llama-3.1-8B-Instruct}\n')
w("five-shapes/random/bundle.yaml", "label: shapes-random\nrole: baseline\nworkload: {dataset: random}\n")
w("five-shapes/rerun/bundle.yaml", "label: shapes-rerun\nrole: candidate\nworkload: {dataset: random}\n")
w("five-shapes/sharegpt/bundle.yaml", "workload: {dataset: sharegpt}\n")  # label given on the command line
for i, (a, b) in enumerate(shapes):
    ttft = 40 + a * 0.055
    for arm, f, day in (("random", 1.0, "20250602"), ("rerun", 0.95, "20250603")):
        o = vllm("%s-1%d0000" % (day, i), model, 100 if a < 30000 else 40, 16, a, b, ttft, 11.5 * f * (1 + a / 40000))
        wj("five-shapes/%s/vllm-infqps-concurrency16-Llama-3.1-8B-Instruct-%s-1%d0000.json" % (arm, day, i), o)
o = vllm("20250604-100000", model, 1000, 16, 221, 198, 52.0, 11.2)
wj("five-shapes/sharegpt/vllm-infqps-concurrency16-Llama-3.1-8B-Instruct-20250604-100000.json", o)

# ---- B: AIPerf time-bound sweep, SGLang HiCache off / on -----------------------------------
def aiperf(conc, reqs, osl, ttft, itl, seed_run):
    isl = 4000
    dur = 120.0 + rng.random()
    start_ns = 1759522419158355424 + seed_run * 1_000_000_000_000
    def metric(unit, avg, spread=0.3, count=reqs):
        return {"unit": unit, "avg": avg, "p1": avg * (1 - 2 * spread), "p5": avg * (1 - 1.6 * spread), "p10": avg * (1 - 1.2 * spread),
                "p25": avg * (1 - 0.6 * spread), "p50": avg * (1 - 0.05 * spread), "p75": avg * (1 + 0.6 * spread),
                "p90": avg * (1 + 1.2 * spread), "p95": avg * (1 + 1.6 * spread), "p99": avg * (1 + 2.4 * spread),
                "min": avg * (1 - 2.5 * spread), "max": avg * (1 + 3 * spread), "std": avg * spread, "count": count, "sum": avg * count}
    lat = ttft + itl * (osl - 1)
    return {"schema_version": "1.3", "aiperf_version": "0.11.0", "benchmark_id": "%012x" % rng.getrandbits(48),
        "request_throughput": {"unit": "requests/sec", "avg": reqs / dur},
        "request_latency": metric("ms", lat, 0.35),
        "request_count": {"unit": "requests", "avg": float(reqs)},
        "time_to_first_token": metric("ms", ttft, 0.25),
        "time_to_second_token": metric("ms", itl * 1.1, 0.2),
        "inter_token_latency": metric("ms", itl, 0.1),
        "output_token_throughput": {"unit": "tokens/sec", "avg": reqs * osl / dur},
        "output_token_throughput_per_user": metric("tokens/sec/user", 1000 / itl, 0.1),
        "output_sequence_length": metric("tokens", osl, 0.4),
        "input_sequence_length": metric("tokens", float(isl), 0.0),
        "min_request_timestamp": {"unit": "ns", "avg": float(start_ns)},
        "max_response_timestamp": {"unit": "ns", "avg": float(start_ns + int(dur * 1e9))},
        "inter_chunk_latency": metric("ms", itl * 1.01, 0.15, reqs * int(osl)),
        "total_output_tokens": {"unit": "tokens", "avg": float(round(reqs * osl))},
        "benchmark_duration": {"unit": "sec", "avg": dur},
        "total_isl": {"unit": "tokens", "avg": float(reqs * isl)},
        "total_osl": {"unit": "tokens", "avg": float(round(reqs * osl))},
        "input_config": {
            "models": {"strategy": "round_robin", "items": [{"name": "Qwen/Qwen3-8B"}]},
            "endpoint": {"urls": ["http://localhost:30000"], "type": "chat", "streaming": True},
            "datasets": [{"name": "main", "type": "synthetic", "entries": 1000, "random_seed": 42,
                          "prompts": {"isl": {"mean": isl, "stddev": 0}}}],
            "phases": [{"name": "warmup", "type": "concurrency", "exclude_from_results": True, "requests": 16, "concurrency": conc},
                       {"name": "profiling", "type": "concurrency", "exclude_from_results": False, "duration": 120.0, "concurrency": conc, "seamless": False}],
            "tokenizer": {"name": "Qwen/Qwen3-8B"}},
        "run_info": {"benchmark_id": "x", "random_seed": 42, "trial": seed_run,
            "cli_command": "aiperf profile --model 'Qwen/Qwen3-8B' --url 'http://localhost:30000' --endpoint-type 'chat' --streaming --isl 4000 --concurrency %d --benchmark-duration 120 --warmup-request-count 16 --random-seed 42" % conc},
        "was_cancelled": False, "error_summary": [],
        "start_time": "2025-10-06T14:%02d:00.000000" % (seed_run % 60), "end_time": "2025-10-06T14:%02d:00.000000" % ((seed_run + 2) % 60)}

def sglang_log(hicache):
    args = ("model_path='Qwen/Qwen3-8B', tokenizer_path='Qwen/Qwen3-8B', tokenizer_mode='auto', skip_tokenizer_init=False, "
            "skip_server_warmup=False, load_format='auto', trust_remote_code=False, dtype='auto', kv_cache_dtype='auto', quantization=None, "
            "context_length=None, device='cuda', served_model_name='Qwen/Qwen3-8B', host='127.0.0.1', port=30000, mem_fraction_static=0.85, "
            "max_running_requests=None, max_total_tokens=None, chunked_prefill_size=8192, max_prefill_tokens=16384, schedule_policy='fcfs', "
            "tp_size=1, random_seed=1234, attention_backend=None, disable_radix_cache=False, disable_cuda_graph=False, "
            "enable_hierarchical_cache=%s, hicache_ratio=2.0, hicache_size=0, hicache_write_policy='write_through_selective', "
            "hicache_io_backend='kernel', hicache_storage_backend=None, enable_torch_compile=False"
            ) % ("True" if hicache else "False")
    return "\n".join([
        "[2025-10-06 13:58:02] server_args=ServerArgs(%s)" % args,
        "[2025-10-06 13:58:10] Attention backend not set. Use fa3 backend by default.",
        "[2025-10-06 13:58:10] Init torch distributed begin.",
        "[2025-10-06 13:58:12] Load weight begin. avail mem=78.58 GB",
        "[2025-10-06 13:58:17] Load weight end. type=Qwen3ForCausalLM, dtype=torch.bfloat16, avail mem=63.20 GB, mem usage=15.38 GB.",
        "[2025-10-06 13:58:17] KV Cache is allocated. #tokens: 371840, K size: 25.53 GB, V size: 25.53 GB",
    ] + (["[2025-10-06 13:58:18] Allocating 102.12 GB host memory for hierarchical KV cache."] if hicache else []) + [
        "[2025-10-06 13:58:18] Capture cuda graph begin. This can take up to several minutes. avail mem=11.02 GB",
        "[2025-10-06 13:58:25] Capture cuda graph end. Time elapsed: 6.91 s. mem usage=0.66 GB. avail mem=10.36 GB.",
        "[2025-10-06 13:58:26] max_total_num_tokens=371840, chunked_prefill_size=8192, max_prefill_tokens=16384, max_running_requests=4096, context_len=40960, available_gpu_mem=10.36 GB",
        "[2025-10-06 13:58:27] INFO:     Started server process [20411]",
        "[2025-10-06 13:58:27] INFO:     Uvicorn running on http://127.0.0.1:30000 (Press CTRL+C to quit)",
        "[2025-10-06 13:58:32] The server is fired up and ready to roll!", ""])

w("aiperf-hicache/bundle.yaml", FINGER + 'workload: {model_name: Qwen/Qwen3-8B, seed: 42}\nchange: {what: "SGLang hierarchical KV cache (HiCache) on", path: other}\n')
for arm, hicache, oslf, ttftf in (("hicache-off", False, 1.0, 1.0), ("hicache-on", True, 0.85, 0.78)):
    w("aiperf-hicache/%s/bundle.yaml" % arm, "label: %s\nrole: %s\n" % (arm, "candidate" if hicache else "baseline"))
    w("aiperf-hicache/%s/sglang-server.log" % arm, sglang_log(hicache))
    for conc in (8, 16):
        for rep in range(1, 6):
            osl = 512 * oslf * (1 + 0.01 * rng.uniform(-1, 1))
            ttft = (310 if conc == 8 else 540) * ttftf * (1 + 0.01 * rng.uniform(-1, 1))
            itl = (7.9 if conc == 8 else 9.6) * (1 + 0.01 * rng.uniform(-1, 1))
            reqs = int(120 * conc / ((ttft + itl * osl) / 1000))
            wj("aiperf-hicache/%s/concurrency_%d/trial_%d/profile_export_aiperf.json" % (arm, conc, rep),
               aiperf(conc, reqs, osl, ttft, itl, rep + conc * 10 + (100 if hicache else 0)), indent=2)

# ---- C: warm-up runs saved beside the measured ones ---------------------------------------
w("phase-list/bundle.yaml", FINGER + 'workload: {model_name: Qwen/Qwen2.5-7B-Instruct, dataset: random, input_len: 1024, output_len: 128, seed: 7}\nchange: {what: "attention backend FLASH_ATTN -> FLASHINFER"}\n')
qmodel = "Qwen/Qwen2.5-7B-Instruct"
# baseline: neutral names, a harness's windows.jsonl names the warm-up (the lab's absolute paths)
w("phase-list/base/bundle.yaml", "label: warm-base\nrole: baseline\n")
w("phase-list/cand/bundle.yaml", "label: warm-cand\nrole: candidate\n")
w("phase-list/unmarked/bundle.yaml", "label: unmarked\nrole: candidate\n")
win = []
for i, conc in enumerate((32, 64)):
    wj("phase-list/base/c%d_0.json" % conc, vllm("20250610-09%02d00" % i, qmodel, 50, conc, 1024, 128, 1650.0 + conc, 14.0))
    wj("phase-list/base/c%d_1.json" % conc, vllm("20250610-09%02d30" % i, qmodel, 400, conc, 1024, 128, 250.0 + conc, 13.1))
    win.append({"window": 2 * i, "phase": "warmup", "concurrency": conc, "num_prompts": 50,
                "result_file": "/home/lab/bench/2025-06-10/base/c%d_0.json" % conc, "start": "2025-06-10T09:%02d:00" % i})
    win.append({"window": 2 * i + 1, "phase": "measure", "concurrency": conc, "num_prompts": 400,
                "result_file": "/home/lab/bench/2025-06-10/base/c%d_1.json" % conc, "start": "2025-06-10T09:%02d:30" % i})
    wj("phase-list/cand/warmup_c%d.json" % conc, vllm("20250611-09%02d00" % i, qmodel, 50, conc, 1024, 128, 1400.0 + conc, 13.0))
    wj("phase-list/cand/result_c%d.json" % conc, vllm("20250611-09%02d30" % i, qmodel, 400, conc, 1024, 128, (250.0 + conc) * 0.809, 12.0))
w("phase-list/base/windows.jsonl", "".join(json.dumps(x) + "\n" for x in win))
wj("phase-list/unmarked/extra_c32.json", vllm("20250612-090000", qmodel, 50, 32, 1024, 128, 1500.0, 13.0))
wj("phase-list/unmarked/result_c32.json", vllm("20250612-090030", qmodel, 400, 32, 1024, 128, 230.0, 12.1))

# ---- D: server logs that differ in prefix caching; an s6-like utilisation trace -------------
def vllm_log(apc, backend_line):
    nd = "{'model_tag': 'meta-llama/Llama-3.1-8B-Instruct', 'model': 'meta-llama/Llama-3.1-8B-Instruct', 'max_num_seqs': 64%s}" % (
        ", 'enable_prefix_caching': False" if not apc else "")
    cfg = ("model='meta-llama/Llama-3.1-8B-Instruct', speculative_config=None, tokenizer='meta-llama/Llama-3.1-8B-Instruct', "
           "skip_tokenizer_init=False, tokenizer_mode=auto, revision=None, tokenizer_revision=None, trust_remote_code=False, "
           "dtype=torch.bfloat16, max_seq_len=131072, download_dir=None, load_format=auto, tensor_parallel_size=1, "
           "pipeline_parallel_size=1, data_parallel_size=1, disable_custom_all_reduce=False, quantization=None, enforce_eager=False, "
           "kv_cache_dtype=auto, device_config=cuda, seed=0, served_model_name=meta-llama/Llama-3.1-8B-Instruct, "
           "enable_prefix_caching=%s, chunked_prefill_enabled=True, pooler_config=None, "
           'compilation_config={"level":3,"cudagraph_mode":[2,1],"use_cudagraph":true}') % ("True" if apc else "False")
    return "\n".join([
        "(APIServer pid=7101) INFO 06-15 10:01:02 [api_server.py:1896] vLLM API server version 0.11.0",
        "(APIServer pid=7101) INFO 06-15 10:01:02 [utils.py:233] non-default args: %s" % nd,
        "(APIServer pid=7101) INFO 06-15 10:01:09 [model.py:547] Resolved architecture: LlamaForCausalLM",
        "(APIServer pid=7101) INFO 06-15 10:01:10 [scheduler.py:205] Chunked prefill is enabled with max_num_batched_tokens=8192.",
        "(EngineCore_DP0 pid=7290) INFO 06-15 10:01:16 [core.py:77] Initializing a V1 LLM engine (v0.11.0) with config: %s" % cfg,
        "(EngineCore_DP0 pid=7290) INFO 06-15 10:01:22 [gpu_model_runner.py:2602] Starting to load model meta-llama/Llama-3.1-8B-Instruct...",
        "(EngineCore_DP0 pid=7290) INFO 06-15 10:01:22 [cuda.py:366] %s" % backend_line,
        "(EngineCore_DP0 pid=7290) INFO 06-15 10:01:30 [gpu_model_runner.py:2653] Model loading took 14.9889 GiB and 7.315101 seconds",
        "(EngineCore_DP0 pid=7290) INFO 06-15 10:01:52 [gpu_worker.py:298] Available KV cache memory: 54.31 GiB",
        "(EngineCore_DP0 pid=7290) INFO 06-15 10:01:52 [kv_cache_utils.py:1087] GPU KV cache size: 444,896 tokens",
        "(EngineCore_DP0 pid=7290) INFO 06-15 10:02:03 [gpu_model_runner.py:3480] Graph capturing finished in 10 secs, took 0.55 GiB",
        "(EngineCore_DP0 pid=7290) INFO 06-15 10:02:03 [core.py:210] init engine (profile, create kv cache, warmup model) took 41.22 seconds",
        "(APIServer pid=7101) INFO 06-15 10:02:04 [api_server.py:1971] Starting vLLM API server 0 on http://0.0.0.0:8000", ""])

def gpu_csv(gap):
    lines = ["timestamp, index, name, utilization.gpu [%], utilization.memory [%], memory.used [MiB]"]
    t0 = 1749981900.0
    import datetime
    for k in range(110):  # 11 s at 100 ms: 1 s idle before the benchmark, 9 s of it, 1 s after
        t = k / 10
        busy = 0 if (t < 1 or t >= 10) else 96
        if gap and 4.0 <= t < 4.9 - 1e-9:
            busy = 0
        if busy:
            busy = busy + (k * 7) % 4 - 1
        ts = datetime.datetime.fromtimestamp(t0 + t, datetime.UTC).strftime("%Y/%m/%d %H:%M:%S.%f")[:-3]
        lines.append("%s, 0, NVIDIA H100 80GB HBM3, %d %%, %d %%, 71234 MiB" % (ts, busy, busy // 2))
    return "\n".join(lines) + "\n"

w("prefix-caching/bundle.yaml", FINGER + 'workload: {model_name: meta-llama/Llama-3.1-8B-Instruct, dataset: random, input_len: 2048, output_len: 256, seed: 11, warmup_iters: 0}\nchange: {what: "attention backend FLASH_ATTN -> FLASHINFER", path: attention}\n')
for arm, apc, line in (("apc-on", True, "Using Flash Attention backend on V1 engine."), ("apc-off", False, "Using FlashInfer backend on V1 engine.")):
    w("prefix-caching/%s/bundle.yaml" % arm, "label: %s\nrole: %s\npath: {target_backend: %s}\n" % (arm, "baseline" if apc else "candidate", "FLASH_ATTN" if apc else "FLASHINFER"))
    w("prefix-caching/%s/server.log" % arm, vllm_log(apc, line))
    for rep in range(1, 6):
        f = 1.0 if apc else 0.93
        o = vllm("20250615-10%02d00" % (rep * 3 + (0 if apc else 30)), model, 200, 16, 2048, 256, 180 * (1 + 0.01 * rng.uniform(-1, 1)),
                 12.0 * f * (1 + 0.005 * rng.uniform(-1, 1)))
        o["num_warmups"] = 8
        wj("prefix-caching/%s/run-%d/vllm-infqps-concurrency16-Llama-3.1-8B-Instruct.json" % (arm, rep), o)
        w("prefix-caching/%s/run-%d/gpu.csv" % (arm, rep), gpu_csv(gap=not apc))
print("ok")
