#!/bin/sh
# benchlens reproduce: fp16 vs fp8
# by benchlens VERSION
# Rerun recipe: the commands that re-create each arm's conditions, from what its files record.
# Replace every '<…: not recorded>' placeholder before running: the files did not record that value.

# === baseline: fp16 ===
# Pins no command sets; check each before running:
#   [?] driver_version: <driver_version: not recorded>
#   [?] base_stack_version: <base_stack_version: not recorded>
#   [?] engine_version: <engine_version: not recorded>
#   [?] hardware_sku: <hardware_sku: not recorded>
#   [?] machine: <machine: not recorded>
#   [?] numa: <numa: not recorded>
#   [?] card_slot: <card_slot: not recorded>
# Warm-up: the first <warmup_iters: not recorded> request(s) of each run dropped by the analysis: keep them in the rerun's result and declare workload.warmup_iters in its bundle.yaml.

# server 1/1 (unknown server), for runs 83,84; leave it running:
# note: no server log and no stack_fingerprint.engine_version: attach the server's startup log to rebuild this command
'<server command: not recorded>'

# benchmark 1/2 (benchmarks/benchmark_serving.py (vLLM < 0.10)), concurrency 1, rate 10 req/s · ≈939→≈512 tok, once per repeat (runs 83):
python benchmarks/benchmark_serving.py \
    --backend openai \
    --model meta-llama/Llama-3.1-8B-Instruct \
    --dataset-name '<dataset: not recorded>' \
    --random-input-len '<input_len, ≈939 measured (per-request median): not recorded>' \
    --random-output-len '<output_len, ≈512 measured (per-request median): not recorded>' \
    --random-range-ratio '<range_ratio: not recorded>' \
    --num-prompts 100 \
    --seed '<seed: not recorded>' \
    --max-concurrency 1 \
    --request-rate 10 \
    --save-result \
    --save-detailed

# benchmark 2/2 (benchmarks/benchmark_serving.py (vLLM < 0.10)), concurrency 64, rate 10 req/s · ≈939→≈512 tok, once per repeat (runs 84):
python benchmarks/benchmark_serving.py \
    --backend openai \
    --model meta-llama/Llama-3.1-8B-Instruct \
    --dataset-name '<dataset: not recorded>' \
    --random-input-len '<input_len, ≈939 measured (per-request median): not recorded>' \
    --random-output-len '<output_len, ≈512 measured (per-request median): not recorded>' \
    --random-range-ratio '<range_ratio: not recorded>' \
    --num-prompts 100 \
    --seed '<seed: not recorded>' \
    --max-concurrency 64 \
    --request-rate 10 \
    --save-result \
    --save-detailed

# === candidate: fp8 ===
# Pins no command sets; check each before running:
#   [?] driver_version: <driver_version: not recorded>
#   [?] base_stack_version: <base_stack_version: not recorded>
#   [?] engine_version: <engine_version: not recorded>
#   [?] hardware_sku: <hardware_sku: not recorded>
#   [?] machine: <machine: not recorded>
#   [?] numa: <numa: not recorded>
#   [?] card_slot: <card_slot: not recorded>
# Warm-up: the first <warmup_iters: not recorded> request(s) of each run dropped by the analysis: keep them in the rerun's result and declare workload.warmup_iters in its bundle.yaml.

# server 1/1 (unknown server), for runs 85,86; leave it running:
# note: no server log and no stack_fingerprint.engine_version: attach the server's startup log to rebuild this command
'<server command: not recorded>'

# benchmark 1/2 (benchmarks/benchmark_serving.py (vLLM < 0.10)), concurrency 1, rate 10 req/s · ≈939→≈512 tok, once per repeat (runs 85):
python benchmarks/benchmark_serving.py \
    --backend openai \
    --model neuralmagic/Meta-Llama-3.1-8B-Instruct-FP8 \
    --dataset-name '<dataset: not recorded>' \
    --random-input-len '<input_len, ≈939 measured (per-request median): not recorded>' \
    --random-output-len '<output_len, ≈512 measured (per-request median): not recorded>' \
    --random-range-ratio '<range_ratio: not recorded>' \
    --num-prompts 100 \
    --seed '<seed: not recorded>' \
    --max-concurrency 1 \
    --request-rate 10 \
    --save-result \
    --save-detailed

# benchmark 2/2 (benchmarks/benchmark_serving.py (vLLM < 0.10)), concurrency 64, rate 10 req/s · ≈939→≈512 tok, once per repeat (runs 86):
python benchmarks/benchmark_serving.py \
    --backend openai \
    --model neuralmagic/Meta-Llama-3.1-8B-Instruct-FP8 \
    --dataset-name '<dataset: not recorded>' \
    --random-input-len '<input_len, ≈939 measured (per-request median): not recorded>' \
    --random-output-len '<output_len, ≈512 measured (per-request median): not recorded>' \
    --random-range-ratio '<range_ratio: not recorded>' \
    --num-prompts 100 \
    --seed '<seed: not recorded>' \
    --max-concurrency 64 \
    --request-rate 10 \
    --save-result \
    --save-detailed
