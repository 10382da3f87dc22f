#!/usr/bin/env python3
"""Writes the dataset-run bundles of datasetrecipe_test.go (README.md says what each imitates).

python3 gen.py rewrites them byte for byte. The SGLang records keep the real server_info of
testdata/fixtures/results/04_agg_n50_in128_out64_c8.jsonl (SGLang 0.5.5.post3)."""
import json, os

here = os.path.dirname(os.path.abspath(__file__))
fixture = os.path.join(here, "..", "..", "..", "..", "testdata", "fixtures", "results", "04_agg_n50_in128_out64_c8.jsonl")


def w(rel, text):
    path = os.path.join(here, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


# ---- SGLang bench_serving on ShareGPT: its defaults for the random flags are written beside ----
server_info = json.loads(open(fixture).readline().replace("Infinity", "1e999"))["server_info"]


def sglang(tag, out_len, n, tin, tout, ttft, tpot):
    dur = n * (ttft + tpot * tout / n) / 1000 / 16 * 1.1
    rec = {"tag": tag, "backend": "sglang", "dataset_name": "sharegpt", "request_rate": float("inf"),
           "max_concurrency": 16, "sharegpt_output_len": out_len, "random_input_len": 1024,
           "random_output_len": 1024, "random_range_ratio": 0.0, "server_info": server_info,
           "duration": dur, "completed": n, "total_input_tokens": tin, "total_input_text_tokens": tin,
           "total_input_vision_tokens": 0, "total_output_tokens": tout, "total_output_tokens_retokenized": tout - 3,
           "request_throughput": n / dur, "input_throughput": tin / dur, "output_throughput": tout / dur,
           "total_throughput": (tin + tout) / dur, "mean_e2e_latency_ms": ttft + tpot * tout / n,
           "median_e2e_latency_ms": 0.9 * (ttft + tpot * tout / n), "std_e2e_latency_ms": 0.4 * (ttft + tpot * tout / n),
           "p99_e2e_latency_ms": 2.5 * (ttft + tpot * tout / n), "mean_ttft_ms": ttft, "median_ttft_ms": 0.8 * ttft,
           "std_ttft_ms": 0.5 * ttft, "p99_ttft_ms": 3 * ttft, "mean_tpot_ms": tpot, "median_tpot_ms": 0.98 * tpot,
           "std_tpot_ms": 0.2 * tpot, "p99_tpot_ms": 1.7 * tpot, "mean_itl_ms": tpot * 1.02, "median_itl_ms": 0.9 * tpot,
           "std_itl_ms": 0.6 * tpot, "p95_itl_ms": 1.9 * tpot, "p99_itl_ms": 2.6 * tpot, "concurrency": 15.2,
           "accept_length": None}
    return json.dumps(rec) + "\n"


w("sglang-sharegpt/bundle.yaml", "label: sgl-sharegpt\nrole: baseline\nworkload: {model_name: Qwen/Qwen2.5-3B-Instruct}\n")
w("sglang-sharegpt/sglang_0612_200_sharegpt.jsonl", sglang("sharegpt_n200_c16", None, 200, 46200, 39400, 41.0, 6.9))
w("sglang-sharegpt-256/bundle.yaml", "label: sgl-sharegpt-256\nrole: candidate\nworkload: {model_name: Qwen/Qwen2.5-3B-Instruct}\n")
w("sglang-sharegpt-256/sglang_0612_200_sharegpt.jsonl", sglang("sharegpt_n200_c16_out256", 256, 200, 46200, 51200, 41.5, 7.0))

# ---- vllm bench serve on a custom JSONL dataset, its command written into bundle.yaml ----------
w("vllm-custom/bundle.yaml", "label: vllm-custom\nrole: candidate\n"
  "workload: {command: \"vllm bench serve --backend vllm --model meta-llama/Llama-3.1-8B-Instruct"
  " --dataset-name custom --dataset-path /data/lab/prompts-2k.jsonl --custom-output-len 512"
  " --num-prompts 500 --max-concurrency 32 --seed 7 --save-result\"}\n")
n, tin, tout = 500, 500 * 1870, 500 * 498
dur = 96.4
w("vllm-custom/vllm-infqps-concurrency32-Llama-3.1-8B-Instruct-20250612-100000.json", json.dumps({
    "date": "20250612-100000", "endpoint_type": "vllm", "backend": "vllm", "label": None,
    "model_id": "meta-llama/Llama-3.1-8B-Instruct", "tokenizer_id": "meta-llama/Llama-3.1-8B-Instruct",
    "num_prompts": n, "request_rate": "inf", "burstiness": 1.0, "max_concurrency": 32, "duration": dur,
    "completed": n, "failed": 0, "total_input_tokens": tin, "total_output_tokens": tout,
    "request_throughput": n / dur, "request_goodput": None, "output_throughput": tout / dur,
    "total_token_throughput": (tin + tout) / dur, "max_output_tokens_per_s": 1.2 * tout / dur,
    "max_concurrent_requests": 32, "mean_ttft_ms": 182.0, "median_ttft_ms": 171.0, "std_ttft_ms": 40.1,
    "p99_ttft_ms": 402.0, "mean_tpot_ms": 14.2, "median_tpot_ms": 14.0, "std_tpot_ms": 1.1,
    "p99_tpot_ms": 21.3, "mean_itl_ms": 13.9, "median_itl_ms": 13.6, "std_itl_ms": 1.2, "p99_itl_ms": 20.8}))
