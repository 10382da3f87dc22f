#!/usr/bin/python3
"""Import one vLLM benchmark result file into SQLite: the analysts' pandas pipeline.

This is the baseline for scripts/bench-import.sh. It is written the way an
analyst would write it today (json.load, numpy, pandas DataFrame.to_sql with
default chunking), neither slowed down nor tuned.

Usage: /usr/bin/python3 scripts/pandas_import.py RESULT.json OUT.db

Needs Debian's python3-numpy and python3-pandas.
"""
import json
import os
import sqlite3
import sys
import time

import numpy as np
import pandas as pd


def summarize(x):
    """mean/median/std/p99 in ms of an array in seconds (numpy defaults, like vLLM)."""
    if len(x) == 0:
        x = np.zeros(1)
    return {
        "mean": float(np.mean(x)) * 1000,
        "median": float(np.median(x)) * 1000,
        "std": float(np.std(x)) * 1000,
        "p99": float(np.percentile(x, 99)) * 1000,
    }


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        sys.exit(2)
    path, db_path = sys.argv[1], sys.argv[2]
    t0 = time.perf_counter()

    with open(path) as f:
        data = json.load(f)
    t_load = time.perf_counter()

    input_lens = np.array(data["input_lens"])
    output_lens = np.array(data["output_lens"])
    ttfts = np.array(data["ttfts"])
    itls = data["itls"]
    errors = data["errors"]
    ok = np.array([e == "" for e in errors])

    # latency = ttft + sum of the gaps; TPOT excludes the first token
    latency = ttfts + np.array([sum(x) for x in itls])
    with np.errstate(divide="ignore", invalid="ignore"):
        tpot = np.where(output_lens > 1, (latency - ttfts) / (output_lens - 1), np.nan)

    gap_counts = np.array([len(x) for x in itls])
    all_gaps = np.concatenate([np.asarray(x, dtype=float) for x in itls]) if len(itls) else np.zeros(0)
    gap_ok = np.repeat(ok, gap_counts)

    stats = {
        "ttft": summarize(ttfts[ok]),
        "tpot": summarize(tpot[ok & (output_lens > 1)]),
        "itl": summarize(all_gaps[gap_ok]),
    }
    t_stats = time.perf_counter()

    run_id = 1
    requests = pd.DataFrame({
        "run_id": run_id,
        "request_idx": np.arange(len(ttfts)),
        "input_len": input_lens,
        "output_len": output_lens,
        "ttft_s": ttfts,
        "tpot_s": tpot,
        "error": errors,
    })
    gaps = pd.DataFrame({
        "run_id": run_id,
        "request_idx": np.repeat(np.arange(len(itls)), gap_counts),
        "gap_idx": np.concatenate([np.arange(n) for n in gap_counts]) if len(itls) else np.zeros(0, dtype=int),
        "gap_s": all_gaps,
    })
    run = {
        "run_id": run_id,
        "source_file": os.path.abspath(path),
        "date": data.get("date"),
        "backend": data.get("backend"),
        "model_id": data.get("model_id"),
        "num_prompts": data.get("num_prompts"),
        "completed": int(ok.sum()),
        "failed": int((~ok).sum()),
        "duration_s": data.get("duration"),
        "total_input_tokens": int(input_lens[ok].sum()),
        "total_output_tokens": int(output_lens.sum()),
    }
    for metric, s in stats.items():
        for stat, v in s.items():
            run[f"{stat}_{metric}_ms"] = v
    runs = pd.DataFrame([run])
    t_frames = time.perf_counter()

    if os.path.exists(db_path):
        os.remove(db_path)
    con = sqlite3.connect(db_path)
    runs.to_sql("runs", con, index=False)
    requests.to_sql("requests", con, index=False)
    gaps.to_sql("gaps", con, index=False)
    con.commit()
    con.close()
    t_sql = time.perf_counter()

    print(f"{path}: {len(requests)} requests ({run['failed']} failed), {len(gaps)} gaps -> {db_path}")
    print(f"{'metric':<10}{'mean':>12}{'median':>12}{'std':>12}{'p99':>12}   (ms; file's own value below)")
    for metric, s in stats.items():
        print(f"{metric:<10}" + "".join(f"{s[k]:>12.4f}" for k in ("mean", "median", "std", "p99")))
        stored = [data.get(f"{k}_{metric}_ms") for k in ("mean", "median", "std", "p99")]
        if all(v is not None for v in stored):
            print(f"{'  (file)':<10}" + "".join(f"{v:>12.4f}" for v in stored))
    print(
        f"phases: json.load {t_load - t0:.2f}s, numpy stats {t_stats - t_load:.2f}s, "
        f"DataFrames {t_frames - t_stats:.2f}s, to_sql+commit {t_sql - t_frames:.2f}s, "
        f"total {t_sql - t0:.2f}s",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
