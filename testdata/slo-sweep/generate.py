#!/usr/bin/env python3
"""Writes the SLO sweep fixtures: result files shaped as `vllm bench serve --save-result
--save-detailed` writes them (vLLM >= 0.10, era G: endpoint_type, label, failed, request_goodput,
start_times, latencies, queue_times), for a baseline and a candidate arm at concurrency 1, 4, 16
and 32, five repeats each, 52 requests per run of which the first two are the warm-up that
bundle.yaml declares. The candidate serves with lower TTFT and TPOT, so its attainment under
ttft<=200,tpot<=30 stays higher as the load grows. A failed request (a server error) sits in
some runs; it must count as a miss.

Also writes slo-saturated/: a baseline and a candidate run that asked for 20 req/s (no
concurrency cap) while the client issued 12 req/s, the saturated point of issue 28's checks.

Deterministic: python3 generate.py rewrites the same bytes. Standard library only.
"""
import json
import math
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = "meta-llama/Llama-3.1-8B-Instruct"
OUT_LEN, IN_LEN, REQUESTS = 16, 128, 52
# (median TTFT ms, median TPOT ms) per concurrency
ARMS = {
    "baseline": {1: (50, 10), 4: (90, 14), 16: (170, 22), 32: (380, 31)},
    "candidate": {1: (45, 9), 4: (70, 12), 16: (118, 17), 32: (250, 24)},
}


def stats_keys(result, name, values_ms):
    xs = sorted(values_ms)
    n = len(xs)
    if n == 0:
        xs, n = [0.0], 1
    mean = sum(xs) / n
    std = math.sqrt(sum((x - mean) ** 2 for x in xs) / n)

    def pct(p):
        k = (n - 1) * p / 100
        f = math.floor(k)
        c = min(f + 1, n - 1)
        return xs[f] + (xs[c] - xs[f]) * (k - f)

    result["mean_%s_ms" % name] = mean
    result["median_%s_ms" % name] = pct(50)
    result["std_%s_ms" % name] = std
    result["p99_%s_ms" % name] = pct(99)


def run(rng, conc, ttft_ms, tpot_ms, fail_at, date, rate="inf", issue_rate=None):
    level = 1 + rng.gauss(0, 0.03)  # the run's own level, run to run
    slots = [0.0] * conc
    reqs = []
    for i in range(REQUESTS):
        if issue_rate:
            start = i / issue_rate
        else:
            k = min(range(conc), key=lambda j: slots[j])
            start = slots[k]
        if i == fail_at:
            reqs.append(dict(start=start, ttft=0.0, itl=[], lat=0.0, out=0,
                             err="Internal Server Error: CUDA out of memory"))
            if not issue_rate:
                slots[k] = start + 0.05
            continue
        ttft = ttft_ms * level * math.exp(rng.gauss(0, 0.35)) / 1e3
        tpot = tpot_ms * level * math.exp(rng.gauss(0, 0.15)) / 1e3
        itl = [tpot * math.exp(rng.gauss(0, 0.1)) for _ in range(OUT_LEN - 1)]
        lat = ttft + sum(itl)
        reqs.append(dict(start=start, ttft=ttft, itl=itl, lat=lat, out=OUT_LEN, err=""))
        if not issue_rate:
            slots[k] = start + lat
    t0 = min(r["start"] for r in reqs)
    for r in reqs:
        r["start"] += 1_700_000_000.0  # perf_counter-like offset, not the epoch
    ok = [r for r in reqs if not r["err"]]
    duration = max(r["start"] + r["lat"] for r in reqs) - min(r["start"] for r in reqs)
    total_out = sum(r["out"] for r in ok)
    res = {
        "date": date, "endpoint_type": "openai", "backend": "openai", "label": None,
        "model_id": MODEL, "tokenizer_id": MODEL, "num_prompts": REQUESTS,
        "request_rate": rate, "burstiness": 1.0, "max_concurrency": None if issue_rate else conc,
        "duration": duration, "completed": len(ok), "failed": REQUESTS - len(ok),
        "total_input_tokens": IN_LEN * len(ok), "total_output_tokens": total_out,
        "request_throughput": len(ok) / duration, "request_goodput": None,
        "output_throughput": total_out / duration,
        "total_token_throughput": (IN_LEN * len(ok) + total_out) / duration,
        "input_lens": [IN_LEN] * REQUESTS,
        "output_lens": [r["out"] for r in reqs],
        "ttfts": [r["ttft"] for r in reqs],
        "itls": [r["itl"] for r in reqs],
        "latencies": [r["lat"] for r in reqs],
        "start_times": [r["start"] for r in reqs],
        "queue_times": [0.0] * REQUESTS,
        "generated_texts": ["" if r["err"] else " token" * r["out"] for r in reqs],
        "errors": [r["err"] for r in reqs],
        "max_output_tokens_per_s": 0.0, "max_concurrent_requests": conc, "rtfx": 0.0,
    }
    stats_keys(res, "ttft", [r["ttft"] * 1e3 for r in ok])
    stats_keys(res, "tpot", [(r["lat"] - r["ttft"]) / (r["out"] - 1) * 1e3 for r in ok])
    stats_keys(res, "itl", [g * 1e3 for r in ok for g in r["itl"]])
    return res


def bundle(label, role, change):
    return "\n".join([
        "label: " + label,
        "role: " + role,
        "change: {what: \"%s\", fields: [], path: attention}" % change,
        "stack_fingerprint: {base_stack_version: \"CUDA 12.8, torch 2.8.0\", driver_version: \"570.124.06\"}",
        "hardware_sku: \"NVIDIA H100 80GB HBM3 x1\"",
        "node: {machine: lab-03, numa: 0, card_slot: 0}",
        "workload: {model_name: %s, dataset: random, input_len: %d, output_len: %d, seed: 7, max_num_seqs: 64, warmup_iters: 2}"
        % (MODEL, IN_LEN, OUT_LEN),
        "path: {target_backend: FLASH_ATTN}",
        "",
    ])


def rounded(v):
    """Times to the microsecond (a perf_counter difference has no more that matters)."""
    if isinstance(v, float):
        return round(v, 6)
    if isinstance(v, list):
        return [rounded(x) for x in v]
    return v


def write(path, obj):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump({k: rounded(v) for k, v in obj.items()}, f)


def main():
    rng = random.Random(20251120)
    for arm, points in ARMS.items():
        d = os.path.join(HERE, arm)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "bundle.yaml"), "w") as f:
            f.write(bundle("slo-" + arm, arm, "FlashAttention 3 decode kernels"))
        n = 0
        for conc, (ttft, tpot) in points.items():
            for rep in range(1, 6):
                n += 1
                day = 20 if arm == "baseline" else 21
                date = "202511%02d-%02d%02d00" % (day, 9 + n // 6, 10 * (n % 6))
                fail_at = 10 + rep if rep in (2, 4) else -1
                res = run(rng, conc, ttft, tpot, fail_at, date)
                write(os.path.join(d, "openai-infqps-concurrency%d-Llama-3.1-8B-Instruct-%s.json" % (conc, date)), res)
    sat = os.path.join(HERE, "..", "slo-saturated")
    for arm, (ttft, tpot, date) in {"baseline": (80, 14, "20251121-090000"), "candidate": (70, 11, "20251121-093000")}.items():
        d = os.path.join(sat, arm)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "bundle.yaml"), "w") as f:
            f.write(bundle("sat-" + arm, arm, "asked for 20 req/s, the client issued 12"))
        write(os.path.join(d, "openai-20.0qps-Llama-3.1-8B-Instruct-%s.json" % date),
              run(rng, 1, ttft, tpot, -1, date, rate=20.0, issue_rate=12.0))

if __name__ == "__main__":
    main()
