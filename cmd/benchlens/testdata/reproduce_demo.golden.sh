#!/bin/sh
# benchlens reproduce 1: comparison 1, baseline vs fallback
# by benchlens VERSION
# Rerun recipe: the commands that re-create each arm's conditions, from what its files record.
# Replace every '<…: not recorded>' placeholder before running: the files did not record that value.

# === baseline: baseline ===
# Pins no command sets; check each before running:
#   [ ] driver_version: 550.54.15
#   [ ] base_stack_version: CUDA 12.9, torch 2.9.0
#   [ ] engine_version: vllm 0.12.0
#   [ ] hardware_sku: NVIDIA H100 80GB HBM3 x1, NVLink none
#   [ ] machine: lab-h100-01
#   [ ] numa: 0
#   [ ] card_slot: 3
# Warm-up: the first 2 request(s) of each run dropped by the analysis: keep them in the rerun's result and declare workload.warmup_iters in its bundle.yaml.

# server 1/1 (vllm serve (vLLM >= 0.12)), for runs 1,2,3,4,5; leave it running:
vllm serve meta-llama/Llama-3.1-8B-Instruct \
    --attention-backend FLASH_ATTN \
    --tensor-parallel-size 1 \
    --dtype bfloat16 \
    --kv-cache-dtype auto \
    --max-num-seqs 64

# benchmark 1/1 (vllm bench serve (vLLM >= 0.10)), concurrency 16 · 1024→64 tok · random, once per repeat (runs 1,2,3,4,5):
vllm bench serve \
    --backend vllm \
    --model meta-llama/Llama-3.1-8B-Instruct \
    --dataset-name random \
    --random-input-len 1024 \
    --random-output-len 64 \
    --random-range-ratio 0.5 \
    --num-prompts 120 \
    --seed 1234 \
    --max-concurrency 16 \
    --request-rate inf \
    --save-result \
    --save-detailed

# === candidate: fallback ===
# Pins no command sets; check each before running:
#   [ ] driver_version: 550.54.15
#   [ ] base_stack_version: CUDA 12.9, torch 2.9.0
#   [ ] engine_version: vllm 0.12.0
#   [ ] hardware_sku: NVIDIA H100 80GB HBM3 x1, NVLink none
#   [ ] machine: lab-h100-01
#   [ ] numa: 0
#   [ ] card_slot: 3
# Warm-up: the first 2 request(s) of each run dropped by the analysis: keep them in the rerun's result and declare workload.warmup_iters in its bundle.yaml.

# server 1/1 (vllm serve (vLLM >= 0.12)), for runs 21,22,23,24,25; leave it running:
vllm serve meta-llama/Llama-3.1-8B-Instruct \
    --attention-backend FLASHINFER \
    --tensor-parallel-size 1 \
    --dtype bfloat16 \
    --kv-cache-dtype auto \
    --max-num-seqs 64

# benchmark 1/1 (vllm bench serve (vLLM >= 0.10)), concurrency 16 · 1024→64 tok · random, once per repeat (runs 21,22,23,24,25):
vllm bench serve \
    --backend vllm \
    --model meta-llama/Llama-3.1-8B-Instruct \
    --dataset-name random \
    --random-input-len 1024 \
    --random-output-len 64 \
    --random-range-ratio 0.5 \
    --num-prompts 120 \
    --seed 1234 \
    --max-concurrency 16 \
    --request-rate inf \
    --save-result \
    --save-detailed
