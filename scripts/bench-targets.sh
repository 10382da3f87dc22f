#!/usr/bin/env bash
# Runs the Go benchmarks of issue 29's figures that have no Python peer, by name, and prints
# each against its target: min and median over rounds of the benchmark's time per op (or its
# own unit, runs/s), with its CPU time when it reports one. Each benchmark's test binary is
# built once; with BENCH_OLD the old tree's runs alternately with it, round by round. A
# benchmark not (yet) in the tree says so instead of failing.
#
# Usage: scripts/bench-targets.sh
# Environment:
#   BENCH_RUNS   rounds (default 5)
#   BENCH_TIME   -benchtime of each round (default 1x)
#   BENCH_OLD    also run the benchmarks of this revision, alternately
#   BENCH_ONLY   only the figures matching this regular expression ("compare|xlsx")
#   BENCHLENS_BENCH_LIBRARY  the 100,000-run library to list (else scripts/genlib makes one)
#   BENCHLENS_BENCH_OLD_LIBRARY  a library of an older schema to migrate (copied each round), e.g.
#                the 100,000-run one taken back to schema 11: sqlite3 COPY "ALTER TABLE runs DROP
#                COLUMN point; ALTER TABLE runs DROP COLUMN measured; ALTER TABLE runs DROP COLUMN listing; DROP INDEX runs_label_role;
#                PRAGMA user_version = 11; VACUUM"
#   BENCH_KEEP=1 keep the temporary directory
#
# Exit status: 1 when a benchmark failed or missed its target, else 0.
set -euo pipefail

cd "$(dirname "$0")/.."
. scripts/benchlib.sh
bench_setup bench-targets
bench_old_tree

# figure | package | benchmark (a -test.bench pattern) | unit | op | target | note (op "-": no target, the
# figure is printed for what it explains)
targets=(
	"many small files: import 10,000 small results|library|^BenchmarkImportFolder\$/^sqlite\$|runs/s|>=|3000|"
	"compare 100 v 100 runs|library|^BenchmarkCompareManyRuns\$/^100\$|s|<=|0.3|"
	"compare 1,000 v 1,000 runs|library|^BenchmarkCompareManyRuns\$/^1000\$|s|<|1|"
	"compare 2 arms x 5 runs, 25 M gaps|library|^BenchmarkCompareBigArms\$|s|<|1|"
	"compare 2,500 v 2,500 runs|library|^BenchmarkCompareManyRuns\$/^2500\$|s|<|2|"
	"list 10,000 runs (runs, sidebar)|library|^BenchmarkRows\$|s|<|1|issue: 100,000 runs in < 1 s"
	"list 100,000 runs (runs)|library|^BenchmarkRowsLibrary\$|s|<|1|the library of BENCHLENS_BENCH_LIBRARY, else scripts/genlib's"
	"list 100,000 runs as JSON (runs --json)|cmd/benchlens|^BenchmarkRunsJSONLibrary\$|s|-||no target of its own: the issue asks it stream (bounded memory)"
	"check 100,000 runs|store|^BenchmarkCheckLibrary\$|s|<|5|the same library"
	"first open of a schema-11 library of 100,000 runs (backup, migration)|store|^BenchmarkMigrateLibrary\$|s|-||BENCHLENS_BENCH_OLD_LIBRARY; the issue's 8-18 s"
	"first frame, 1,000 runs|gui|^BenchmarkFirstFrame1000Runs\$|s|<|1|"
	"first frame, 100,000 runs|gui|^BenchmarkFirstFrameLibrary\$|s|<|1|the library of BENCHLENS_BENCH_LIBRARY, else scripts/genlib's"
	"sidebar search keystroke, 100,000 runs, narrow|gui|^BenchmarkSidebarSearchLibrary\$/^narrow\$|s|<|0.1|a query of 2,000 runs"
	"sidebar search keystroke, 100,000 runs, broad|gui|^BenchmarkSidebarSearchLibrary\$/^broad\$|s|<|0.1|a query of every run"
	"change points over 10,000 runs|analysis/history|^BenchmarkDetect10000\$|s|<|1|"
	"xlsx of 100 comparisons|analysis/report|^BenchmarkXLSX100\$|s|<=|0.3|"
	"trace 100 MB, parse alone|importers/trace|^BenchmarkParse100MB\$|s|-||no target of its own: the issue's is bench-trace.sh's ratio to pandas"
	"import 112 MB into a fresh library|library|^BenchmarkImportDetailed\$/^sqlite\$|s|<=|0.5|peer ratio: bench-import.sh"
	"compare two sweeps, 20 M gaps|library|^BenchmarkCompareSweep\$|s|<|1|"
	"compare two sweeps of 36 points run once, request by request|library|^BenchmarkCompareSweepOneRun\$|s|<|0.5|the issue's 'a sweep compares in 0.5 s'; aurotripathy's FP16/FP8 sweep"
	"switch the compare view, 25 M gaps|gui|^BenchmarkCompareSwitch\$|s|<=|0.3|"
	"switch the compare view between sweeps|gui|^BenchmarkCompareSwitchSweep\$|s|<=|0.3|"
	"switch the compare view between 36-point sweeps run once|gui|^BenchmarkCompareSwitchSweepOneRun\$|s|<=|0.3|aurotripathy's FP16/FP8 layout"
	"first frame, team library of 10,000 runs|gui|^BenchmarkFirstFrame10000RunsTeamLibrary\$|s|<|1|needs PostgreSQL"
)

# build_test TREE PKG OUT: the package's test binary, or nothing when it has no tests.
build_test() {
	[[ -x "$3" || -e "$3.none" ]] && return 0
	if ! (cd "$1" && go test -c -o "$3" "./$2/") >"$3.build.log" 2>&1; then
		echo "go test -c ./$2/ failed in $1:" >&2
		tail -n 5 "$3.build.log" >&2
		touch "$3.none"
	fi
}

# has_bench BIN PATTERN: the binary lists a benchmark matching the pattern's first part.
has_bench() {
	local top="${2%%/*}"
	[[ -x "$1" ]] && "$1" -test.list "$top" 2>/dev/null | grep -q .
}

# run_bench NAME BIN PKGDIR PATTERN UNIT ROUND: one round; appends "value cpu" to NAME.times.
run_bench() {
	local log="$tmp/$1-$6.log"
	if ! (cd "$3" && "$2" -test.run '^$' -test.bench "$4" -test.benchtime "${BENCH_TIME:-1x}" -test.count 1) >"$log" 2>&1; then
		echo "$1: benchmark failed (round $6):" >&2
		tail -n 5 "$log" >&2
		return 1
	fi
	awk -v unit="$5" '/^Benchmark/ {
		v = "n/a"; c = "n/a"
		for (i = 3; i < NF; i++) {
			if (unit == "s" && $(i+1) == "ns/op") v = sprintf("%.6f", $i / 1e9)
			if (unit != "s" && $(i+1) == unit) v = $i
			if ($(i+1) == "cpu-ms/op") c = sprintf("%.6f", $i / 1000)
		}
		printf "%s %s\n", v, c
	}' "$log" | tail -n 1 >>"$tmp/$1.times"
}

# tstat NAME COL min|max|median FORMAT: one statistic of a benchmark's rounds, or n/a.
tstat() {
	[[ -s "$tmp/$1.times" ]] || { echo n/a; return; }
	awk -v c="$2" '$c ~ /^[0-9.]+$/ {print $c}' "$tmp/$1.times" | sort -g | awk -v how="$3" -v f="$4" '{v[NR] = $1}
		END {
			if (NR == 0) { print "n/a"; exit }
			x = (how == "min") ? v[1] : (how == "max") ? v[NR] : (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2
			printf f, x
		}'
}

# big_library: the 100,000-run library the *Library benchmarks read: BENCHLENS_BENCH_LIBRARY,
# else one made by scripts/genlib (50 series of 2,000 runs; minutes on a busy machine).
big_library() {
	[[ -z "${BENCHLENS_BENCH_LIBRARY:-}" && -d scripts/genlib ]] || return 0
	echo "generating a library of 100,000 runs (scripts/genlib) ..."
	if go run ./scripts/genlib -out "$tmp/lib100k.db" -series 50 -per 2000 >"$tmp/genlib.log" 2>&1; then
		export BENCHLENS_BENCH_LIBRARY="$tmp/lib100k.db"
	else
		echo "scripts/genlib failed: the 100,000-run listing is not measured" >&2
		tail -n 3 "$tmp/genlib.log" >&2
	fi
}

status=0
echo "$(bench_load) at the start"
for i in "${!targets[@]}"; do
	IFS='|' read -r figure pkg pattern unit op target note <<<"${targets[$i]}"
	[[ -n "${BENCH_ONLY:-}" && ! "$figure" =~ $BENCH_ONLY ]] && continue
	bin="$tmp/new-${pkg//\//_}.test"
	build_test . "$pkg" "$bin"
	if ! has_bench "$bin" "$pattern"; then
		top="${pattern%%/*}"
		echo "$figure: not measured: no ${top//[\^\$]/} in ./$pkg/ of this tree (target $op $target $unit)"
		continue
	fi
	old_bin=""
	if [[ -n "$old_dir" ]]; then
		old_bin="$tmp/old-${pkg//\//_}.test"
		build_test "$old_dir" "$pkg" "$old_bin"
		has_bench "$old_bin" "$pattern" || old_bin=""
	fi
	[[ "$pattern" == *Library\$* ]] && big_library
	failed=0
	for ((r = 1; r <= runs; r++)); do
		run_bench "t$i" "$bin" "./$pkg" "$pattern" "$unit" "$r" || failed=1
		if [[ -n "$old_bin" ]]; then
			run_bench "old$i" "$old_bin" "$old_dir/$pkg" "$pattern" "$unit" "$r" || true
		fi
	done
	if [[ "$(tstat "t$i" 1 min %.3f)" == n/a ]] && ((!failed)); then
		echo "$figure: not measured: ${pattern//[\^\$]/} ran nothing in this tree (target $op $target $unit)"
		continue
	fi
	# runs/s: higher is better, so the best round is the max
	best=min fmt=%.3f
	[[ "$op" == ">=" ]] && best=max
	[[ "$unit" != s ]] && fmt=%.0f
	line="$(tstat "t$i" 1 "$best" "$fmt") $unit ($best), median $(tstat "t$i" 1 median "$fmt") $unit"
	cpu="$(tstat "t$i" 2 median %.3f)"
	[[ "$cpu" != n/a ]] && line+=", CPU $cpu s/op"
	if [[ -n "$old_bin" ]]; then
		line+="; old $old_rev: $(tstat "old$i" 1 "$best" "$fmt") ($best), median $(tstat "old$i" 1 median "$fmt")"
		cpu="$(tstat "old$i" 2 median %.3f)"
		[[ "$cpu" != n/a ]] && line+=", CPU $cpu s/op"
	fi
	echo "$figure (${pattern//[\^\$]/}): $line"
	if ((failed)); then
		echo "$figure: FAILED (a round did not finish)"
		status=1
		continue
	fi
	if [[ "$op" == - ]]; then
		[[ -n "$note" ]] && echo "     ($note)"
		continue
	fi
	tgt_op="$op"
	[[ "$op" == "<" ]] && tgt_op="<="
	bench_pass "  $figure ($best of $runs, $unit)" "$(tstat "t$i" 1 "$best" "$fmt")" "$tgt_op" "$target" || status=1
	[[ -n "$note" ]] && echo "     ($note)"
done
echo "$(bench_load) at the end"
exit "$status"
