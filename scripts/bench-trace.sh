#!/usr/bin/env bash
# Times the import of a 100 MB PyTorch profiler (Kineto) trace against its peers, side by side:
# the analysts' pandas pipeline (scripts/pandas_trace.py: json.load and pandas group-by), a
# bare json.load of the file, and orjson.loads when orjson is installed. The Go side is what a
# user runs: `benchlens import DIR` of a folder holding a small result and the trace beside it
# (the trace is read, reduced and stored with the run); the same folder without the trace is
# timed too, so the trace's own share shows. Issue 29's target: >= 5x json.load + pandas.
#
# Usage: scripts/bench-trace.sh
# Environment:
#   BENCH_TRACE  reuse this trace instead of generating one with scripts/gentrace
#   BENCH_RUNS   rounds (default 5); each Go import gets a fresh library
#   BENCH_OLD    also time the benchlens of this revision, alternately with the new one
#   BENCH_KEEP=1 keep the temporary directory
#
# Exit status: 0 when every importer ran and the target holds, 1 otherwise.
set -euo pipefail

cd "$(dirname "$0")/.."
. scripts/benchlib.sh
bench_setup bench-trace
bench_old_tree

if [[ -n "${BENCH_TRACE:-}" ]]; then
	trace="$BENCH_TRACE"
	[[ -f "$trace" ]] || { echo "BENCH_TRACE=$trace: no such file" >&2; exit 2; }
else
	echo "generating a 100 MiB Kineto trace (scripts/gentrace) ..."
	go run ./scripts/gentrace -out "$tmp/trace.json" -mib 100
	trace="$tmp/trace.json"
fi
# The run the trace joins: one of the demo's results, alone and with the trace beside it.
result="$(ls demo/samples/baseline/run-1/vllm-*.json | head -n 1)"
mkdir -p "$tmp/run" "$tmp/alone"
cp "$result" "$tmp/run/" && cp "$result" "$tmp/alone/"
ln "$trace" "$tmp/run/trace.json" 2>/dev/null || cp "$trace" "$tmp/run/trace.json" # a symlink would be refused
cat "$trace" >/dev/null # every reader starts with the file in the page cache

echo "building ./cmd/benchlens ..."
go build -o "$tmp/benchlens" ./cmd/benchlens
if [[ -n "$old_dir" ]]; then
	echo "building the old tree's cmd/benchlens ..."
	(cd "$old_dir" && go build -o "$tmp/benchlens-old" ./cmd/benchlens)
fi

bench_peers
status=0
go_import() { # NAME BINARY DIR ROUND
	local db="$tmp/$1-$4.db"
	if ! bench_time "$1" "$tmp/$1-$4.log" "$2" --db "$db" import "$3" || [[ "$(cat "$tmp/$1-$4.log")" != "imported 1 runs" ]]; then
		echo "$1 failed (round $4):" >&2
		tail -n 5 "$tmp/$1-$4.log" >&2
		status=1
	fi
	rm -f "$db" "$db-wal" "$db-shm" "$db-journal"
}
for ((i = 1; i <= runs; i++)); do
	echo "round $i/$runs ($(bench_load))"
	bench_time python "$tmp/python-$i.log" "$python" scripts/pandas_trace.py "$trace" || { echo "pandas_trace.py failed:" >&2; tail -n 5 "$tmp/python-$i.log" >&2; status=1; }
	bench_bare "$trace" "$i" || status=1
	go_import go "$tmp/benchlens" "$tmp/run" "$i"
	go_import alone "$tmp/benchlens" "$tmp/alone" "$i"
	if [[ -n "$old_dir" ]]; then
		go_import old "$tmp/benchlens-old" "$tmp/run" "$i"
	fi
done

echo
echo "trace: $trace ($(stat -L -c %s "$trace") bytes), $(bench_load) after the rounds"
rows=("benchlens import (Go):go" "python json.load + pandas:python")
bare_note=""
bench_bare_rows
[[ -n "$old_dir" ]] && rows+=("benchlens import, old $old_rev:old")
rows+=("benchlens import, result alone:alone")
bench_table go "${rows[@]}"
[[ -z "$bare_note" ]] || echo "$bare_note"
echo
ratio_min="$(bench_ratio "$(bench_stat python 1 min)" "$(bench_stat go 1 min)")"
bench_pass "trace $(awk -v b="$(stat -L -c %s "$trace")" 'BEGIN {printf "%.0f", b/1048576}') MiB: python+pandas / Go (min wall)" "${ratio_min%x}" ">=" 5 || status=1
exit "$status"
