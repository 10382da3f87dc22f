#!/usr/bin/env bash
# Times the benchlens Go importer against its peers on the same large vLLM result file, side
# by side: the analysts' pandas pipeline (scripts/pandas_import.py), a bare json.load of the
# file, and orjson.loads when orjson is installed. Each round runs every importer once, in
# turn, so a noisy machine slows them alike; each figure is given as min and median over the
# rounds (wall and CPU time), and each peer as a ratio to the Go importer (peer time / Go
# time). Issue 29's targets: the 112 MB result in <= 0.5 s, >= 25x the pandas pipeline.
#
# Usage: scripts/bench-import.sh
# Environment:
#   BENCH_FILE   reuse this result file instead of generating one with scripts/genbig
#   BENCH_RUNS   rounds (default 5); each Go or pandas run gets a fresh database
#   BENCH_OLD    also time the benchlens of this revision, alternately with the new one
#   BENCH_KEEP=1 keep the temporary directory (file, databases, logs)
#
# Exit status: 0 when every importer ran every time and the targets hold, 1 otherwise (a Go
# build or import failure is shouted; the python side is still timed and reported).
set -euo pipefail

cd "$(dirname "$0")/.."
. scripts/benchlib.sh
bench_setup bench-import
bench_old_tree

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
if [[ -n "$old_dir" ]]; then
	echo "building the old tree's cmd/benchlens ..."
	(cd "$old_dir" && go build -o "$tmp/benchlens-old" ./cmd/benchlens)
fi

bench_peers
py_status="ok"
# go_import NAME BINARY ROUND: one import into a fresh library; 1 when it fails.
go_import() {
	local db="$tmp/$1-$3.db" rc=0
	bench_time "$1" "$tmp/$1-$3.log" "$2" --db "$db" import "$file" || rc=1
	rm -f "$db" "$db-wal" "$db-shm" "$db-journal"
	return "$rc"
}
for ((i = 1; i <= runs; i++)); do
	echo "round $i/$runs ($(bench_load)): python+pandas, json.load${peers[2]:+, orjson}, go ..."
	if ! bench_time python "$tmp/python-$i.log" "$python" scripts/pandas_import.py "$file" "$tmp/python-$i.db"; then
		py_status="FAILED"
		echo "python pipeline failed (run $i):" >&2
		tail -n 20 "$tmp/python-$i.log" >&2
	fi
	rm -f "$tmp/python-$i.db"
	bench_bare "$file" "$i" || true
	if ((go_ok)) && ! go_import go "$tmp/benchlens" "$i"; then
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
	if [[ -n "$old_dir" ]]; then
		go_import old "$tmp/benchlens-old" "$i" || echo "old tree's import failed (run $i)" >&2
	fi
done

file_mib="$(awk -v b="$file_bytes" 'BEGIN {printf "%.1f", b/1048576}')"
echo
echo "file: $file"
echo "size: $file_bytes bytes = $file_mib MiB; $(bench_load) after the rounds"
echo "status: go $go_status, python $py_status"
rows=("benchlens (Go):go" "python+pandas:python")
bare_note=""
bench_bare_rows
[[ -n "$old_dir" ]] && rows+=("benchlens, old $old_rev:old")
bench_table go "${rows[@]}"
[[ -z "$bare_note" ]] || echo "$bare_note"
echo

status=0
if [[ "$go_status" == ok && "$py_status" == ok ]]; then
	ratio="$(bench_ratio "$(bench_stat python 1 min)" "$(bench_stat go 1 min)")"
	bench_pass "import $file_mib MiB: python+pandas / Go (min wall)" "${ratio%x}" ">=" 25 || status=1
	bench_pass "import $file_mib MiB: Go min wall s" "$(bench_stat go 1 min)" "<=" 0.5 || status=1
	go_rss="$(bench_rss go)"
	if [[ "$go_rss" == n/a ]]; then
		echo "Go peak RSS < 3x file size: not measured (no /usr/bin/time)"
	else
		bench_pass "import $file_mib MiB: Go peak RSS MiB" "$go_rss" "<=" "$(awk -v f="$file_mib" 'BEGIN {printf "%.1f", 3*f}')" || status=1
	fi
else
	echo "ratio python/go: n/a (go: $go_status, python: $py_status)"
	echo "bench-import: FAILED (go: $go_status, python: $py_status)" >&2
	status=1
fi
exit "$status"
