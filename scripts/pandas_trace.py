#!/usr/bin/python3
"""Summarise one PyTorch profiler (Kineto) trace: the analysts' pandas pipeline.

This is the peer of the Go trace importer in `make bench` (scripts/bench-trace.sh). It is
written the way an analyst would write it today (json.load of the whole file, a DataFrame of
traceEvents, pandas group-by), neither slowed down nor tuned, and computes what the importer
does: kernels, launches, syncs and copies counted, device time per kernel, the top ops, and the
ProfilerStep windows.

Usage: /usr/bin/python3 scripts/pandas_trace.py TRACE.json

Needs Debian's python3-pandas.
"""
import json
import sys
import time

import pandas as pd


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-3], file=sys.stderr)
        sys.exit(2)
    t0 = time.perf_counter()
    with open(sys.argv[1]) as f:
        data = json.load(f)
    t_load = time.perf_counter()

    df = pd.DataFrame(data["traceEvents"], columns=["ph", "cat", "name", "pid", "ts", "dur", "args"])
    x = df[df["ph"] == "X"]
    per_cat = x.groupby("cat")["dur"].agg(["count", "sum"])

    kernels = x[x["cat"] == "kernel"]
    top = kernels.groupby("name")["dur"].agg(["count", "sum"]).sort_values("sum", ascending=False).head(15)

    rt = x[x["cat"] == "cuda_runtime"]
    calls = rt.groupby("name")["dur"].agg(["count", "sum"])
    launches = calls[calls.index.str.startswith("cudaLaunchKernel")]["count"].sum()
    syncs = calls[calls.index.str.contains("Synchronize")]["count"].sum()

    copies = x[x["cat"] == "gpu_memcpy"].copy()
    copies["direction"] = copies["name"].str.extract(r"Memcpy (\w+)", expand=False)
    copies["bytes"] = copies["args"].map(lambda a: a.get("bytes", 0) if isinstance(a, dict) else 0)
    per_dir = copies.groupby("direction").agg(count=("dur", "count"), time=("dur", "sum"), bytes=("bytes", "sum"))

    steps = x[x["name"].str.startswith("ProfilerStep#", na=False)]
    windows = steps.assign(end=steps["ts"] + steps["dur"]).groupby(["name", "cat"]).agg(start=("ts", "min"), end=("end", "max"))

    busy = kernels["dur"].sum() + copies["dur"].sum()
    t_end = time.perf_counter()
    print(per_cat.to_string())
    print(top.to_string())
    print(per_dir.to_string())
    print(f"kernels {len(kernels)}, launches {launches}, syncs {syncs}, steps {len(windows) // 2}, device busy {busy:.0f} us")
    print(f"phases: json.load {t_load - t0:.2f}s, pandas {t_end - t_load:.2f}s", file=sys.stderr)


if __name__ == "__main__":
    main()
