#!/usr/bin/env bash
# Times the benchlens Go importer against its peers on the same large vLLM result file, side
# by side: the analysts' pandas pipeline (scripts/pandas_import.py), a bare json.load of the
# file, and orjson.loads when orjson is installed. Each round runs every importer once, in
# turn, so a noisy machine slows them alike; each figure is given as min and median over the
# rounds, and each peer as a ratio to the Go importer (peer time / Go time).
#
# Usage: scripts/bench-import.sh
# Environment:
#   BENCH_FILE   reuse this result file instead of generating one with scripts/genbig
#   BENCH_RUNS   rounds (default 3); each Go or pandas run gets a fresh database
#   BENCH_KEEP=1 keep the temporary directory (file, databases, logs)
#
# Exit status: 0 when both importers ran every time, 1 when the Go side failed
# to build or to import (the python side is still timed and reported).
set -euo pipefail

cd "$(dirname "$0")/.."
runs="${BENCH_RUNS:-3}"
python=/usr/bin/python3

tmp="$(mktemp -d "${TMPDIR:-/tmp}/bench-import.XXXXXX")"
cleanup() {
	if [[ "${BENCH_KEEP:-0}" == 1 ]]; then
		echo "kept $tmp"
	else
		rm -rf "$tmp"
	fi
}
trap cleanup EXIT

have_time=1
if ! command -v /usr/bin/time >/dev/null 2>&1; then
	have_time=0
	echo "NOTE: /usr/bin/time not found: wall time comes from bash's time, peak RSS is not measured (n/a)." >&2
fi

# ---- input file ----------------------------------------------------------
if [[ -n "${BENCH_FILE:-}" ]]; then
	file="$BENCH_FILE"
	[[ -f "$file" ]] || { echo "BENCH_FILE=$file: no such file" >&2; exit 2; }
	echo "using BENCH_FILE=$file"
else
	echo "building scripts/genbig ..."
	go build -o "$tmp/genbig" ./scripts/genbig
	file="$tmp/vllm-big.json"
	echo "generating $file ..."
	"$tmp/genbig" -out "$file"
fi
file_bytes="$(stat -c %s "$file")"
cat "$file" >/dev/null # both importers start with the file in the page cache

# ---- Go importer -----------------------------------------------------------
go_ok=1
go_status="ok"
echo "building ./cmd/benchlens ..."
if ! go build -o "$tmp/benchlens" ./cmd/benchlens 2>"$tmp/go-build.log"; then
	go_ok=0
	go_status="BUILD FAILED"
	{
		echo
		echo "************************************************************"
		echo "** GO IMPORTER NOT TIMED: go build ./cmd/benchlens failed **"
		echo "************************************************************"
		sed 's/^/   /' "$tmp/go-build.log"
		echo
	} >&2
fi

# run_timed NAME LOG CMD...: runs CMD, appends "wall_s rss_kb" to $tmp/NAME.times.
# Returns CMD's exit status.
run_timed() {
	local name="$1" log="$2"
	shift 2
	local rc=0
	if ((have_time)); then
		/usr/bin/time -f '%e %M' -o "$tmp/time.out" "$@" >"$log" 2>&1 || rc=$?
		# with a non-zero exit, GNU time writes "Command exited with non-zero status N" first
		tail -n 1 "$tmp/time.out" >>"$tmp/$name.times"
	else
		local TIMEFORMAT=%R t
		t="$({ time "$@" >"$log" 2>&1; } 2>&1)" || rc=$?
		# bash's time report is the last line on the group's stderr
		echo "${t##*$'\n'} n/a" >>"$tmp/$name.times"
	fi
	return "$rc"
}

peers=(python jsonload)
if "$python" -c 'import orjson' 2>/dev/null; then
	peers+=(orjson)
fi
for name in "${peers[@]}" go; do : >"$tmp/$name.times"; done
py_status="ok"
for ((i = 1; i <= runs; i++)); do
	echo "round $i/$runs: python+pandas ..."
	if ! run_timed python "$tmp/python-$i.log" "$python" scripts/pandas_import.py "$file" "$tmp/python-$i.db"; then
		py_status="FAILED"
		echo "python pipeline failed (run $i):" >&2
		tail -n 20 "$tmp/python-$i.log" >&2
	fi
	rm -f "$tmp/python-$i.db"
	echo "round $i/$runs: json.load ..."
	run_timed jsonload "$tmp/jsonload-$i.log" "$python" -c 'import json, sys
with open(sys.argv[1], "rb") as f:
    json.load(f)' "$file" || echo "json.load failed (run $i)" >&2
	if [[ " ${peers[*]} " == *" orjson "* ]]; then
		echo "round $i/$runs: orjson ..."
		run_timed orjson "$tmp/orjson-$i.log" "$python" -c 'import orjson, sys
with open(sys.argv[1], "rb") as f:
    orjson.loads(f.read())' "$file" || echo "orjson failed (run $i)" >&2
	fi
	if ((go_ok)); then
		echo "round $i/$runs: go ..."
		if ! run_timed go "$tmp/go-$i.log" "$tmp/benchlens" --db "$tmp/go-$i.db" import "$file"; then
			go_ok=0
			go_status="IMPORT FAILED"
			{
				echo
				echo "*****************************************************"
				echo "** GO IMPORTER FAILED: benchlens --db DB import FILE **"
				echo "*****************************************************"
				tail -n 20 "$tmp/go-$i.log" | sed 's/^/   /'
				echo
			} >&2
		fi
		rm -f "$tmp/go-$i.db" "$tmp/go-$i.db-wal" "$tmp/go-$i.db-shm" "$tmp/go-$i.db-journal"
	fi
done

# median of column 1 and max of column 2 ("n/a" when not measured)
median() { sort -g | awk '{v[NR]=$1} END {if (NR==0) print "n/a"; else if (NR%2) printf "%.2f", v[(NR+1)/2]; else printf "%.2f", (v[NR/2]+v[NR/2+1])/2}'; }
wall() { awk '{print $1}' "$tmp/$1.times" | median; }
rss_mib() { awk '$2 ~ /^[0-9]+$/ {if ($2>m) m=$2; n++} END {if (n) printf "%.1f", m/1024; else print "n/a"}' "$tmp/$1.times"; }
all_runs() { awk '{printf "%s%s", (NR>1 ? " " : ""), $1}' "$tmp/$1.times"; }

file_mib="$(awk -v b="$file_bytes" 'BEGIN {printf "%.1f", b/1048576}')"
py_wall="$(wall python)" py_rss="$(rss_mib python)"
if [[ "$go_status" == ok ]]; then
	go_wall="$(wall go)" go_rss="$(rss_mib go)"
else
	go_wall="n/a" go_rss="n/a"
fi

echo
echo "file: $file"
echo "size: $file_bytes bytes = $file_mib MiB"
echo
printf '%-22s %12s %15s  %-14s %s\n' importer "median wall s" "peak RSS MiB" status "wall s per run"
printf '%-22s %12s %15s  %-14s %s\n' "python+pandas" "$py_wall" "$py_rss" "$py_status" "$(all_runs python)"
printf '%-22s %12s %15s  %-14s %s\n' "benchlens (Go)" "$go_wall" "$go_rss" "$go_status" "$(all_runs go)"
echo
# Each figure beside its peers: min and median over the rounds, and the ratio peer/Go of each
# (above 1: the Go importer is that many times faster).
low() { awk '{print $1}' "$tmp/$1.times" | sort -g | head -n 1; }
title() { case "$1" in python) echo "python+pandas" ;; jsonload) echo "json.load (bare)" ;; orjson) echo "orjson.loads (bare)" ;; go) echo "benchlens (Go)" ;; esac; }
printf '%-22s %8s %10s %14s %16s\n' "side by side" "min s" "median s" "ratio (min)" "ratio (median)"
for name in go "${peers[@]}"; do
	m="$(low "$name")" md="$(wall "$name")"
	if [[ "$go_status" == ok && -n "$m" ]]; then
		awk -v n="$(title "$name")" -v m="$m" -v md="$md" -v gm="$(low go)" -v gmd="$go_wall" 'BEGIN {
			rm = (gm > 0 ? sprintf("%.1fx", m / gm) : "n/a"); rmd = (gmd > 0 ? sprintf("%.1fx", md / gmd) : "n/a")
			printf "%-22s %8.2f %10.2f %14s %16s\n", n, m, md, rm, rmd
		}'
	else
		printf '%-22s %8s %10s %14s %16s\n' "$(title "$name")" "${m:-n/a}" "$md" n/a n/a
	fi
done
if [[ " ${peers[*]} " != *" orjson "* ]]; then
	echo "(orjson is not installed: no orjson row)"
fi
echo
if [[ "$go_status" == ok && "$py_status" == ok ]]; then
	awk -v p="$py_wall" -v g="$go_wall" 'BEGIN {
		if (g <= 0) { print "ratio python/go: go wall time rounds to 0 s (too fast to measure with 10 ms resolution)"; exit }
		r = p / g
		printf "ratio python/go (median wall): %.1fx  -> %s\n", r, (r >= 10 ? "PASS (>= 10x)" : "FAIL (< 10x)")
	}'
	if [[ "$go_rss" == n/a ]]; then
		echo "Go peak RSS < 3x file size: not measured (no /usr/bin/time)"
	else
		awk -v r="$go_rss" -v f="$file_mib" 'BEGIN {
			printf "Go peak RSS < 3x file size (%.1f < %.1f MiB): %s\n", r, 3*f, (r < 3*f ? "yes" : "NO")
		}'
	fi
else
	echo "ratio python/go: n/a (go: $go_status, python: $py_status)"
	echo "Go peak RSS < 3x file size: n/a"
fi

if [[ "$go_status" != ok || "$py_status" != ok ]]; then
	echo "bench-import: FAILED (go: $go_status, python: $py_status)" >&2
	exit 1
fi
