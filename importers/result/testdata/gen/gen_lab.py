"""Writes the AISBench, EvalScope and MindIE testdata of importers/result (more-formats.md 3.1-3.3).

No real file of these tools could be found, so each case imitates one version's writer, as read
from its source: AISBench @ 29c363e (v3.1-20260820: base_perf_metric_calculator.py,
default_perf.py, output_handler/base_handler.py, db_utils.py) and EvalScope v1.0.0, v1.6.1,
v1.8.0 and v1.10.0 (benchmark_util.py, db_util.py). Numbers are drawn from a seeded generator
and the summaries are computed from the same requests, as the tools compute them, so the
files agree with each other. Run from this folder: python3 gen_lab.py
"""
import json, os, random, sqlite3, struct, shutil

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def requests(seed, n, fail=0, out_len=(120, 200), in_len=(300, 700), conc=1):
    rnd = random.Random(seed)
    t, reqs = 1000.0 + seed, []
    for i in range(n):
        start = t + i * (0.9 / conc)
        ok = i >= fail
        r = {"start": round(start, 6), "ok": ok}
        if ok:
            ttft = rnd.uniform(0.05, 0.12) * (1 + 0.15 * (conc - 1))
            o = rnd.randint(*out_len)
            gaps = [rnd.uniform(0.018, 0.026) * (1 + 0.05 * (conc - 1)) for _ in range(o - 1)]
            r.update(ttft=ttft, gaps=gaps, out=o, inp=rnd.randint(*in_len))
            r["lat"] = ttft + sum(gaps)
            r["tpot"] = (r["lat"] - ttft) / (o - 1)
        reqs.append(r)
    return reqs


def nearest(xs, p):
    xs = sorted(xs)
    return xs[min(int(len(xs) * p / 100), len(xs) - 1)]


# ---------------------------------------------------------------- EvalScope
def evalscope_db(path, reqs, era):
    if os.path.exists(path):
        os.remove(path)
    c = sqlite3.connect(path)
    if era == "1.0":
        c.execute("""CREATE TABLE result(request TEXT, start_time REAL, chunk_times TEXT, success INTEGER,
            response_messages TEXT, completed_time REAL, latency REAL, first_chunk_latency REAL,
            n_chunks INTEGER, chunk_time REAL, prompt_tokens INTEGER, completion_tokens INTEGER,
            max_gpu_memory_cost REAL, time_per_output_token REAL)""")
    else:
        c.execute("""CREATE TABLE IF NOT EXISTS result(request TEXT, start_time REAL, inter_token_latencies TEXT,
            success INTEGER, response_messages TEXT, completed_time REAL, latency REAL, first_chunk_latency REAL,
            prompt_tokens INTEGER, completion_tokens INTEGER, max_gpu_memory_cost REAL, time_per_output_token REAL,
            request_id TEXT, is_stream INTEGER)""")
    for i, r in enumerate(reqs):
        req = json.dumps({"model": "Qwen2.5-7B-Instruct", "messages": [{"role": "user", "content": "prompt %d" % i}], "stream": True})
        if r["ok"]:
            times = []
            t = r["start"] + r["ttft"]
            times.append(t)
            for g in r["gaps"]:
                t += g
                times.append(t)
            resp = json.dumps(["data: {...}"])
            end = r["start"] + r["lat"]
            vals = dict(lat=r["lat"], ttft=r["ttft"], inp=r["inp"], out=r["out"], tpot=r["tpot"], end=end)
        else:
            times, resp, vals = [], json.dumps(["Connection reset by peer"]), dict(lat=None, ttft=None, inp=None, out=None, tpot=None, end=r["start"] + 0.01)
        if era == "1.0":
            c.execute("INSERT INTO result VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                      (req, r["start"], json.dumps(times), int(r["ok"]), resp, vals["end"], vals["lat"], vals["ttft"],
                       len(times), None, vals["inp"], vals["out"], 0.0, vals["tpot"]))
        else:
            c.execute("INSERT INTO result VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                      (req, r["start"], json.dumps(r.get("gaps", [])), int(r["ok"]), resp, vals["end"], vals["lat"], vals["ttft"],
                       vals["inp"], vals["out"], 0.0, vals["tpot"], "req-%04d" % i, 1))
    c.commit()
    c.close()


def evalscope_case(folder, era, reqs, parallel, number, rate=-1):
    os.makedirs(folder, exist_ok=True)
    ok = [r for r in reqs if r["ok"]]
    dur = max(r["start"] + r.get("lat", 0.01) for r in reqs) - min(r["start"] for r in reqs)
    out_tok = sum(r["out"] for r in ok)
    in_tok = sum(r["inp"] for r in ok)
    mean = lambda xs: sum(xs) / len(xs)
    ttft, tpot, lat = [r["ttft"] for r in ok], [r["tpot"] for r in ok], [r["lat"] for r in ok]
    itl = [g for r in ok for g in r["gaps"]]
    s = lambda x: round(x, 4)
    if era in ("1.0", "1.6"):
        summ = {"Time taken for tests (s)": s(dur), "Number of concurrency": parallel, "Total requests": len(reqs),
                "Succeed requests": len(ok), "Failed requests": len(reqs) - len(ok),
                "Output token throughput (tok/s)": s(out_tok / dur), "Total token throughput (tok/s)": s((in_tok + out_tok) / dur),
                "Request throughput (req/s)": s(len(ok) / dur), "Average latency (s)": s(mean(lat)),
                "Average time to first token (s)": s(mean(ttft)), "Average time per output token (s)": s(mean(tpot)),
                "Average input tokens per request": s(in_tok / len(ok)), "Average output tokens per request": s(out_tok / len(ok))}
        if era == "1.0":
            summ["Average package latency (s)"] = s(mean(itl))
            summ["Average package per request"] = s(mean([len(r["gaps"]) + 1 for r in ok]))
        else:
            summ["Request rate (req/s)"] = rate
            summ["Average inter-token latency (s)"] = s(mean(itl))
    else:
        summ = {"Test Duration (s)": s(dur), "Concurrency": parallel, "Request Rate (req/s)": rate, "Total Requests": len(reqs),
                "Success Requests": len(ok), "Failed Requests": len(reqs) - len(ok), "Req Throughput (req/s)": s(len(ok) / dur),
                "Avg Latency (s)": s(mean(lat)), "Avg Input Tokens": s(in_tok / len(ok)), "Avg Output Tokens": s(out_tok / len(ok)),
                "Output Throughput (tok/s)": s(out_tok / dur), "Total Throughput (tok/s)": s((in_tok + out_tok) / dur),
                "Input Throughput (tok/s)": s(in_tok / dur)}
        k = "%s (ms)" if era == "1.8" else "Avg %s (ms)"
        summ[k % "TTFT"] = round(mean(ttft) * 1000, 2)
        summ[k % "TPOT"] = round(mean(tpot) * 1000, 2)
        summ[k % "ITL"] = round(mean(itl) * 1000, 2)
        if era == "1.10":
            summ.update({"Stream Requests": len(reqs), "Non-Stream Requests": 0})
    json.dump(summ, open(os.path.join(folder, "benchmark_summary.json"), "w"), indent=4, ensure_ascii=False)
    if era in ("1.0", "1.6"):
        labels = ["10%", "25%", "50%", "66%", "75%", "80%", "90%", "95%", "98%", "99%"]
        keys = [("TTFT (s)", ttft, 1), ("ITL (s)", itl, 1), ("TPOT (s)", tpot, 1), ("Latency (s)", lat, 1)]
        dp = 4
    else:
        labels = ["min", "1%", "5%", "10%", "25%", "50%", "75%", "90%", "95%", "99%", "max"] if era == "1.10" else \
            ["10%", "25%", "50%", "66%", "75%", "80%", "90%", "95%", "98%", "99%"]
        keys = [("TTFT (ms)", ttft, 1000), ("ITL (ms)", itl, 1000), ("TPOT (ms)", tpot, 1000), ("Latency (s)", lat, 1)]
        dp = 2
    rows = []
    for lab in labels:
        row = {"Percentiles": lab}
        for key, xs, sc in keys:
            v = min(xs) if lab == "min" else max(xs) if lab == "max" else nearest(xs, float(lab[:-1]))
            row[key] = round(v * sc, dp if sc == 1000 else 4)
        pick = lambda xs: min(xs) if lab == "min" else max(xs) if lab == "max" else nearest(xs, float(lab[:-1]))
        row["Input tokens"] = pick([r["inp"] for r in ok])
        row["Output tokens"] = pick([r["out"] for r in ok])
        row["Output (tok/s)"] = round(pick([r["out"] / r["lat"] for r in ok]), 2)
        if era == "1.10":
            row["Decode (tok/s)"] = round(pick([1 / r["tpot"] for r in ok]), 2)
        rows.append(row)
    json.dump(rows, open(os.path.join(folder, "benchmark_percentile.json"), "w"), indent=4, ensure_ascii=False)
    args = {"model": "Qwen2.5-7B-Instruct", "url": "http://127.0.0.1:8000/v1/chat/completions", "api": "openai",
            "parallel": parallel, "number": number, "rate": rate, "dataset": "openqa", "max_tokens": 2048, "min_tokens": 0,
            "stream": True, "seed": 42, "warmup_num": 0 if era == "1.0" else 2, "tokenizer_path": None}
    json.dump(args, open(os.path.join(folder, "benchmark_args.json"), "w"), indent=4)
    evalscope_db(os.path.join(folder, "benchmark_data.db"), reqs, era)


# ---------------------------------------------------------------- AISBench
def npy(values):
    header = "{'descr': '<f8', 'fortran_order': False, 'shape': (%d,), }" % len(values)
    pad = 64 - (10 + len(header) + 1) % 64
    header = header + " " * pad + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + struct.pack("<%dd" % len(values), *values)


def aisbench_case(folder, dataset, reqs, stats, stage, max_conc, details=True, old_total_key=False):
    perf = os.path.join(folder, "performances", "vllm-api-stream-chat")
    os.makedirs(perf, exist_ok=True)
    ok = [r for r in reqs if r["ok"]]
    tps = []
    for r in ok:
        tp = [r["start"], r["start"] + r["ttft"]]
        for g in r["gaps"]:
            tp.append(tp[-1] + g)
        tps.append(tp)
    dur = max(tp[-1] for tp in tps) - min(r["start"] for r in reqs)
    import statistics

    def stat(xs, name):
        xs = sorted(xs)
        if name == "Average": return sum(xs) / len(xs)
        if name == "Min": return xs[0]
        if name == "Max": return xs[-1]
        q = 50 if name == "Median" else int(name[1:])
        k = (len(xs) - 1) * q / 100  # numpy's linear percentile
        f = int(k); c = min(f + 1, len(xs) - 1)
        return xs[f] + (xs[c] - xs[f]) * (k - f)
    e2el = [tp[-1] - tp[0] for tp in tps]
    ttft = [tp[1] - tp[0] for tp in tps]
    tpot = [(e - t) / (r["out"] - 1) for e, t, r in zip(e2el, ttft, ok)]
    itl = [tp[i] - tp[i - 1] for tp in tps for i in range(2, len(tp))]
    metrics = [("E2EL", e2el, " ms"), ("TTFT", ttft, " ms"), ("TPOT", tpot, " ms"), ("ITL", itl, " ms"),
               ("InputTokens", [r["inp"] for r in ok], None), ("OutputTokens", [r["out"] for r in ok], None),
               ("OutputTokenThroughput", [r["out"] / e for r, e in zip(ok, e2el)], " token/s"),
               ("PrefillTokenThroughput", [r["inp"] / t for r, t in zip(ok, ttft)], " token/s")]
    with open(os.path.join(perf, dataset + ".csv"), "w", newline="") as f:
        import csv
        w = csv.writer(f)
        w.writerow(["Performance Parameters", "Stage"] + stats + ["N"])
        for name, xs, unit in metrics:
            row = [name, stage]
            for st in stats:
                v = round(stat(xs, st), 4)
                if unit == " ms":
                    row.append(str(round(v * 1000, 4)) + unit)
                elif unit:
                    row.append(str(v) + unit)
                else:
                    row.append(v)
            row.append(len(ok))
            w.writerow(row)
    in_tok, out_tok = sum(r["inp"] for r in ok), sum(r["out"] for r in ok)
    common = {"Benchmark Duration": str(round(dur * 1000, 4)) + " ms", "Total Requests": len(reqs),
              "Failed Requests": len(reqs) - len(ok), "Success Requests": len(ok),
              "Concurrency": round(sum(e2el) / dur, 4), "Max Concurrency": max_conc,
              "Request Throughput": str(round(len(ok) / dur, 4)) + " req/s", "Total Input Tokens": in_tok,
              ("Total generated tokens" if old_total_key else "Total Generated Tokens"): out_tok,
              "Input Token Throughput": str(round(in_tok / dur, 4)) + " token/s",
              "Output Token Throughput": str(round(out_tok / dur, 4)) + " token/s",
              "Total Token Throughput": str(round((in_tok + out_tok) / dur, 4)) + " token/s"}
    json.dump({k: {stage: v} for k, v in common.items()}, open(os.path.join(perf, dataset + ".json"), "w"), indent=4, ensure_ascii=False)
    if not details:
        return
    db_name = dataset + "_0.db"
    os.makedirs(os.path.join(perf, "db_data"), exist_ok=True)
    dbp = os.path.join(perf, "db_data", db_name)
    if os.path.exists(dbp):
        os.remove(dbp)
    c = sqlite3.connect(dbp)
    c.execute("CREATE TABLE IF NOT EXISTS numpy_store (id INTEGER PRIMARY KEY AUTOINCREMENT, arr_blob BLOB NOT NULL)")
    lines, k = [], 0
    for i, r in enumerate(reqs):
        line = {"data_abbr": dataset, "id": i, "success": r["ok"], "uuid": "%08x" % (0x1a2b3c00 + i),
                "input": "Question %d: ..." % i}
        if r["ok"]:
            tp = tps[k]; k += 1
            cur = c.execute("INSERT INTO numpy_store (arr_blob) VALUES (?)", (npy(tp),))
            line.update(time_points={"__db_ref__": cur.lastrowid}, input_tokens=r["inp"], output_tokens=r["out"], prediction="The answer is ...")
        else:
            line.update(time_points=None, error_info="Request failed: 503 Service Unavailable")
        line["db_name"] = db_name
        lines.append(json.dumps(line, ensure_ascii=False))
    c.commit(); c.close()
    open(os.path.join(perf, dataset + "_details.jsonl"), "w").write("\n".join(lines) + "\n")
    # What a killed run leaves: its partial records under tmp/ (default_perf.py _load_tmp_result).
    os.makedirs(os.path.join(perf, "tmp"), exist_ok=True)
    open(os.path.join(perf, "tmp", "tmp_" + dataset + "_1.jsonl"), "w").write("\n".join(lines[:2]) + "\n")


def main():
    es = os.path.join(ROOT, "evalscope")
    shutil.rmtree(es, ignore_errors=True)
    evalscope_case(os.path.join(es, "v1.0-single/outputs/20250115_093000/Qwen2.5-7B-Instruct"), "1.0", requests(10, 8), 1, 8)
    base = os.path.join(es, "v1.6.1-sweep/outputs/20250610_141500/Qwen2.5-7B-Instruct")
    evalscope_case(os.path.join(base, "parallel_1_number_6"), "1.6", requests(16, 6), 1, 6)
    evalscope_case(os.path.join(base, "parallel_4_number_12"), "1.6", requests(17, 12, fail=1, conc=4), 4, 12)
    evalscope_case(os.path.join(es, "v1.8.0-rate/outputs/20251020_080000/Qwen2.5-7B-Instruct/rate_2_number_10"), "1.8", requests(18, 10, conc=2), 2, 10, rate=2)
    base = os.path.join(es, "v1.10.0-sweep/outputs/20260822_101010/Qwen2.5-7B-Instruct")
    evalscope_case(os.path.join(base, "parallel_2_number_8"), "1.10", requests(110, 8, conc=2), 2, 8)
    evalscope_case(os.path.join(base, "parallel_8_number_16"), "1.10", requests(111, 16, conc=8), 8, 16)
    open(os.path.join(base, "performance_summary.txt"), "w").write(
        "Performance Test Summary Report\n\nBasic Information:\n  Model: Qwen2.5-7B-Instruct\n  Test Range: Concurrency 2 - 8\n\n"
        "Conc.  RPS    Avg Lat.(s)  P99 Lat.(s)  Gen. toks/s  Avg TTFT(s)  P99 TTFT(s)  Avg TPOT(s)  P99 TPOT(s)  Success Rate\n")
    ab = os.path.join(ROOT, "aisbench")
    shutil.rmtree(ab, ignore_errors=True)
    aisbench_case(os.path.join(ab, "v3.1-gsm8k/outputs/default/20260820_101500"), "gsm8k", requests(31, 10, fail=1, conc=4),
                  ["Average", "Min", "Max", "Median", "P75", "P90", "P99"], "total", 4)
    aisbench_case(os.path.join(ab, "v3.1-stable-sharegpt/outputs/default/20260820_120000"), "sharegpt", requests(32, 12, conc=8),
                  ["Average", "Median", "P90", "P99"], "stable", 8, details=False, old_total_key=True)
    md = os.path.join(ROOT, "mindie")
    shutil.rmtree(md, ignore_errors=True)
    os.makedirs(md)
    open(os.path.join(md, "results_per_request.csv"), "w").write(
        "InputTokens,GeneratedTokens,FirstTokenTime,DecodeTime,GenerateTime\n512,128,85.2,21.4,2802.6\n498,131,88.0,21.9,2960.3\n")


if __name__ == "__main__":
    main()
