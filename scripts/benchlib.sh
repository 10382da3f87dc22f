# Shared by the side-by-side benchmarks of `make bench` (bench-import.sh, bench-trace.sh,
# bench-targets.sh): timing each command, min and median over rounds, the table of a figure
# beside its peers as ratios, and the old tree to time beside the new one. Sourced, not run.
#
# Each timed series NAME collects one line per round in $tmp/NAME.times: wall seconds, CPU
# seconds (user + system) and peak RSS KiB ("n/a" without /usr/bin/time). Rounds run every
# command once, in turn, so a noisy machine slows them alike: the min is the fairest figure,
# the median says how much the neighbours took.

python=/usr/bin/python3 # Debian's, with numpy and pandas (python3 on PATH may lack them)

# bench_setup PREFIX: sets tmp (removed on exit unless BENCH_KEEP=1), runs and have_time.
bench_setup() {
	runs="${BENCH_RUNS:-5}"
	tmp="$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")"
	trap bench_cleanup EXIT
	have_time=1
	if ! command -v /usr/bin/time >/dev/null 2>&1; then
		have_time=0
		echo "NOTE: /usr/bin/time not found: wall time from bash's time, no CPU time or peak RSS (n/a)." >&2
	fi
}

bench_cleanup() {
	if [[ "${BENCH_KEEP:-0}" == 1 ]]; then
		echo "kept $tmp"
	else
		rm -rf "$tmp"
	fi
}

# bench_load: the machine's load average and cores, for the report.
bench_load() {
	echo "load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo n/a) on $(nproc 2>/dev/null || echo '?') cores"
}

# bench_time NAME LOG CMD...: runs CMD, appends "wall cpu rss" to $tmp/NAME.times and returns
# CMD's exit status.
bench_time() {
	local name="$1" log="$2"
	shift 2
	local rc=0
	if ((have_time)); then
		/usr/bin/time -f '%e %U %S %M' -o "$tmp/time.out" "$@" >"$log" 2>&1 || rc=$?
		# with a non-zero exit, GNU time writes "Command exited with non-zero status N" first
		tail -n 1 "$tmp/time.out" | awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' >>"$tmp/$name.times"
	else
		local TIMEFORMAT=%R t
		t="$({ time "$@" >"$log" 2>&1; } 2>&1)" || rc=$?
		echo "${t##*$'\n'} n/a n/a" >>"$tmp/$name.times"
	fi
	return "$rc"
}

# bench_peers: sets peers to the Python series every side-by-side script times: its pandas
# pipeline (python), a bare json.load (jsonload), and orjson.loads when orjson is installed.
bench_peers() {
	peers=(python jsonload)
	if "$python" -c 'import orjson' 2>/dev/null; then
		peers+=(orjson)
	fi
}

# bench_bare FILE ROUND: one round of the bare parses of FILE (json.load, orjson if installed).
bench_bare() {
	bench_time jsonload "$tmp/jsonload-$2.log" "$python" -c 'import json, sys
with open(sys.argv[1], "rb") as f:
    json.load(f)' "$1" || { echo "json.load failed (round $2)" >&2; return 1; }
	if [[ " ${peers[*]} " == *" orjson "* ]]; then
		bench_time orjson "$tmp/orjson-$2.log" "$python" -c 'import orjson, sys
with open(sys.argv[1], "rb") as f:
    orjson.loads(f.read())' "$1" || { echo "orjson failed (round $2)" >&2; return 1; }
	fi
}

# bench_bare_rows: the table rows of the bare parses (for bench_table), and a note when orjson
# is missing.
bench_bare_rows() {
	rows+=("json.load (bare):jsonload")
	if [[ " ${peers[*]} " == *" orjson "* ]]; then
		rows+=("orjson.loads (bare):orjson")
	else
		bare_note="(orjson is not installed: no orjson row; the bare json.load row stands for the parse alone)"
	fi
}

# bench_stat NAME COL min|median: column COL (1 wall, 2 CPU) of NAME's rounds, or n/a.
bench_stat() {
	[[ -s "$tmp/$1.times" ]] || { echo n/a; return; }
	awk -v c="$2" '$c ~ /^[0-9.]+$/ {print $c}' "$tmp/$1.times" | sort -g | awk -v how="$3" '{v[NR]=$1}
		END {
			if (NR == 0) { print "n/a"; exit }
			if (how == "min") { printf "%.2f", v[1]; exit }
			if (NR % 2) printf "%.2f", v[(NR+1)/2]; else printf "%.2f", (v[NR/2]+v[NR/2+1])/2
		}'
}

# bench_rss NAME: the highest peak RSS of NAME's rounds in MiB, or n/a.
bench_rss() {
	awk '$3 ~ /^[0-9]+$/ {if ($3>m) m=$3; n++} END {if (n) printf "%.1f", m/1024; else print "n/a"}' "$tmp/$1.times" 2>/dev/null || echo n/a
}

# bench_ratio A B: A/B as "12.3x", or n/a.
bench_ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && b > 0) printf "%.1fx", a/b; else print "n/a"}'
}

# bench_table REF TITLE:NAME...: each series beside REF: min and median wall time, median CPU
# time, peak RSS, and each time as a ratio to REF's (above 1: REF is that many times faster).
bench_table() {
	local ref="$1"
	shift
	printf '%-34s %7s %8s %8s %8s  %-22s\n' "side by side ($runs rounds)" "min s" "median s" "CPU s" "RSS MiB" "ratio min / median / CPU"
	local item title name m md c
	for item in "$@"; do
		title="${item%%:*}" name="${item#*:}"
		m="$(bench_stat "$name" 1 min)" md="$(bench_stat "$name" 1 median)" c="$(bench_stat "$name" 2 median)"
		printf '%-34s %7s %8s %8s %8s  %s / %s / %s\n' "$title" "$m" "$md" "$c" "$(bench_rss "$name")" \
			"$(bench_ratio "$m" "$(bench_stat "$ref" 1 min)")" \
			"$(bench_ratio "$md" "$(bench_stat "$ref" 1 median)")" \
			"$(bench_ratio "$c" "$(bench_stat "$ref" 2 median)")"
	done
}

# bench_pass WHAT VALUE OP TARGET: one pass line, "PASS" when VALUE OP TARGET holds (OP is >=
# or <=), "FAIL" when not, "n/a" when VALUE was not measured. Returns 1 on FAIL.
bench_pass() {
	local what="$1" v="$2" op="$3" target="$4"
	awk -v w="$what" -v v="$v" -v op="$op" -v t="$target" 'BEGIN {
		if (v !~ /^[0-9.]+$/) { printf "%s: n/a (target %s %s)\n", w, op, t; exit 0 }
		ok = (op == ">=") ? (v + 0 >= t + 0) : (v + 0 <= t + 0)
		printf "%s: %s  -> %s (target %s %s)\n", w, v, (ok ? "PASS" : "FAIL"), op, t
		exit ok ? 0 : 1
	}'
}

# bench_old_tree: with BENCH_OLD=REV (a commit, branch or tag of this repository), exports
# that tree to $tmp/old and sets old_dir; the old tree's binary is then timed in the same
# rounds as the new one, alternately. Without BENCH_OLD, old_dir is empty.
bench_old_tree() {
	old_dir=""
	[[ -n "${BENCH_OLD:-}" ]] || return 0
	old_rev="$(git rev-parse --short "$BENCH_OLD")" || { echo "BENCH_OLD=$BENCH_OLD: no such revision" >&2; exit 2; }
	old_dir="$tmp/old"
	mkdir -p "$old_dir"
	git archive "$BENCH_OLD" | tar -x -C "$old_dir"
	echo "old tree: $BENCH_OLD ($old_rev) in $old_dir"
}
