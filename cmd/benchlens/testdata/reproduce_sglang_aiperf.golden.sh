#!/bin/sh
# benchlens reproduce: sgl vs aip
# by benchlens VERSION
# Rerun recipe: the commands that re-create each arm's conditions, from what its files record.
# Replace every '<…: not recorded>' placeholder before running: the files did not record that value.

# === baseline: sgl ===
# Pins no command sets; check each before running:
#   [?] driver_version: <driver_version: not recorded>
#   [?] base_stack_version: <base_stack_version: not recorded>
#   [?] engine_version: <engine_version: not recorded>
#   [?] hardware_sku: <hardware_sku: not recorded>
#   [?] machine: <machine: not recorded>
#   [?] numa: <numa: not recorded>
#   [?] card_slot: <card_slot: not recorded>
# Warm-up: the first <warmup_iters: not recorded> request(s) of each run dropped by the analysis: keep them in the rerun's result and declare workload.warmup_iters in its bundle.yaml.

# server 1/1 (python -m sglang.launch_server), for runs 87; leave it running:
# note: max_running_requests is None in the server's arguments: the server default
python -m sglang.launch_server \
    --model-path Qwen/Qwen2.5-3B-Instruct \
    --attention-backend fa3 \
    --tp-size 1 \
    --dtype auto \
    --kv-cache-dtype auto

# benchmark 1/1 (python -m sglang.bench_serving), concurrency 8 · 128→64 tok · random, once per repeat (runs 87):
python -m sglang.bench_serving \
    --backend sglang \
    --model Qwen/Qwen2.5-3B-Instruct \
    --dataset-name random \
    --random-input-len 128 \
    --random-output-len 64 \
    --random-range-ratio 0 \
    --num-prompts '<num_prompts: not recorded>' \
    --seed '<seed: not recorded>' \
    --max-concurrency 8 \
    --request-rate inf \
    --output-file results.jsonl \
    --output-details

# === candidate: aip ===
# Pins no command sets; check each before running:
#   [?] driver_version: <driver_version: not recorded>
#   [?] base_stack_version: <base_stack_version: not recorded>
#   [?] engine_version: <engine_version: not recorded>
#   [?] hardware_sku: <hardware_sku: not recorded>
#   [?] machine: <machine: not recorded>
#   [?] numa: <numa: not recorded>
#   [?] card_slot: <card_slot: not recorded>
# Warm-up: the first <warmup_iters: not recorded> request(s) of each run dropped by the analysis: keep them in the rerun's result and declare workload.warmup_iters in its bundle.yaml.

# server 1/1 (unknown server), for runs 88; leave it running:
# note: no server log and no stack_fingerprint.engine_version: attach the server's startup log to rebuild this command
'<server command: not recorded>'

# benchmark 1/1 (aiperf profile), concurrency 16 · output not fixed · inputs-qwen3-4b.json, once per repeat (runs 88):
# note: request_rate not recorded: left out, the load is set by the concurrency
aiperf profile \
    --endpoint-type chat \
    --model qwen3-4b \
    --input-file /benchmarks/sharegpt-cache/inputs-qwen3-4b.json \
    --custom-dataset-type inputs_json \
    --benchmark-duration 300 \
    --random-seed 42 \
    --concurrency 16 \
    --streaming
