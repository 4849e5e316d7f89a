#!/usr/bin/env bash
# bench/run.sh: measure oomdiag's throughput, memory and start-up time next
# to cat, wc -l, ripgrep and GNU grep on the same generated training logs.
# What it measures and how to read the tables: docs/performance.md.
#
# Environment (all optional):
#   OOMDIAG   the binary to measure (default build/oomdiag); rows are marked
#             pending when it does not exist
#   SIZES     input sizes, with K, M or G suffixes (default "1M 100M 1G")
#   RUNS      runs per measurement, median taken (default 5; at most 3 for
#             inputs of 1 GiB and more)
#   MANY      files in the many-files test (default 10000; 0 skips it)
#   STARTUP   runs in the start-up test (default 100; 0 skips it)
#   RULES     rule files or directories the peers' patterns come from
#             (default rules)
#   SEED      generator seed (default 1)
#   TIMEOUT   seconds one command may run (default 600)
# Inputs and results go to bench/out/ (not in git); the tables are printed
# and also written to bench/out/results.md.
set -u -o pipefail

cd "$(dirname "$0")/.." || exit 2
OUT=bench/out
OOMDIAG=${OOMDIAG:-build/oomdiag}
SIZES=${SIZES:-1M 100M 1G}
RUNS=${RUNS:-5}
MANY=${MANY:-10000}
STARTUP=${STARTUP:-100}
RULES=${RULES:-rules}
SEED=${SEED:-1}
TIMEOUT=${TIMEOUT:-600}
TIME_BIN=/usr/bin/time
GENLOG=$OUT/genlog
RESULTS=$OUT/results.md

mkdir -p "$OUT" || exit 2
read -r load_before _ </proc/loadavg
if locale -a 2>/dev/null | grep -qix 'c\.utf-\?8'; then
	export LC_ALL=C.UTF-8
fi

say() { printf '%s\n' "$*" >&2; }
have() { command -v "$1" >/dev/null 2>&1; }

# 1M -> 1048576
to_bytes() {
	local n=${1%[KkMmGg]} unit=${1#"${1%[KkMmGg]}"}
	case $unit in
	K | k) echo $((n << 10)) ;;
	M | m) echo $((n << 20)) ;;
	G | g) echo $((n << 30)) ;;
	*) echo "$n" ;;
	esac
}

now_us() { echo "${EPOCHREALTIME//[!0-9]/}"; }

median() {
	sort -g | awk '{ v[NR] = $1 }
		END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# --- the generator and the inputs ---

if [ ! -x "$GENLOG" ] || [ bench/genlog.c -nt "$GENLOG" ]; then
	say "compiling $GENLOG"
	"${CC:-cc}" -O2 -o "$GENLOG" bench/genlog.c || exit 2
fi

# input_file SIZE: prints the path of the log of that size, generating it
input_file() {
	local f=$OUT/log-$1-seed$SEED.log want
	want=$(to_bytes "$1")
	if [ ! -f "$f" ] || [ "$GENLOG" -nt "$f" ] || [ "$(stat -c %s "$f")" != "$want" ]; then
		say "generating $f"
		"$GENLOG" "$want" "$SEED" >"$f" || exit 2
	fi
	echo "$f"
}

# --- the peers' patterns, from oomdiag's own rules ---

read -r -a rule_paths <<<"$RULES"
say "translating signature patterns from: ${rule_paths[*]}"
if ! python3 bench/patterns.py "$OUT" "${rule_paths[@]}" >/dev/null; then
	say "bench/patterns.py failed"
	exit 2
fi
count_lines() { if [ -f "$1" ]; then wc -l <"$1"; else echo 0; fi; }
n_rg=$(count_lines "$OUT/patterns.rg")
n_ere=$(count_lines "$OUT/patterns.ere")
n_pcre=$(count_lines "$OUT/patterns.pcre")

# --- the tools: NAME and the command before the input ---

tool_names=()
declare -A tool_cmd tool_dest
add_tool() { # NAME DEST CMD...
	local name=$1 dest=$2
	shift 2
	tool_names+=("$name")
	tool_cmd[$name]=$(printf '%q ' "$@")
	tool_dest[$name]=$dest
}
add_tool "cat" /dev/null cat
add_tool "wc -l" /dev/null wc -l
# The matchers write to a regular file, not /dev/null: GNU grep stops at the
# first match when its output is /dev/null.
add_tool "oomdiag" "$OUT/stdout.txt" "$OOMDIAG" --format json
if have rg && [ "$n_rg" -gt 0 ]; then
	add_tool "rg" "$OUT/stdout.txt" rg --no-config --no-ignore -f "$OUT/patterns.rg"
else
	say "skipping rg: not installed or no pattern translated"
fi
if have grep && [ "$n_ere" -gt 0 ]; then
	add_tool "grep -E" "$OUT/stdout.txt" grep -E -f "$OUT/patterns.ere"
else
	say "skipping grep: not installed or no pattern translated"
fi
if have pcre2grep && [ "$n_pcre" -gt 0 ]; then
	add_tool "pcre2grep" "$OUT/stdout.txt" pcre2grep -f "$OUT/patterns.pcre"
fi
oomdiag_ok=0
[ -x "$OOMDIAG" ] && oomdiag_ok=1
[ $oomdiag_ok = 1 ] || say "no $OOMDIAG yet: its rows are marked pending"
[ -x "$TIME_BIN" ] || say "no $TIME_BIN (apt-get install -y time): peak RSS not measured"

# --- measuring ---

# run_once MODE INPUT DEST CMD...: one run; sets T_US and RSS_KB; returns
# the command's exit status. MODE file: CMD INPUT; pipe: cat INPUT | CMD;
# xargs: find INPUT -type f | xargs CMD.
run_once() {
	local mode=$1 input=$2 dest=$3 t0 t1 rc
	shift 3
	local timed=(timeout "$TIMEOUT")
	[ -x "$TIME_BIN" ] && timed=("$TIME_BIN" -f '%e %M' -o "$OUT/time.txt" "${timed[@]}")
	t0=$(now_us)
	# shellcheck disable=SC2002 # the pipe from cat is what mode pipe measures
	case $mode in
	file) "${timed[@]}" "$@" "$input" <"/dev/null" >"$dest" 2>"$OUT/stderr.txt" ;;
	pipe) cat "$input" | "${timed[@]}" "$@" >"$dest" 2>"$OUT/stderr.txt" ;;
	xargs) find "$input" -type f -print0 |
		"${timed[@]}" xargs -0 "$@" >"$dest" 2>"$OUT/stderr.txt" ;;
	esac
	rc=$?
	t1=$(now_us)
	T_US=$((t1 - t0))
	RSS_KB=-
	[ -x "$TIME_BIN" ] && RSS_KB=$(tail -n 1 "$OUT/time.txt" | awk '{ print $2 }')
	return $rc
}

# measure NAME MODE INPUT BYTES RUNS: prints "MB/s RSS_MiB" or a reason
measure() {
	local name=$1 mode=$2 input=$3 bytes=$4 runs=$5 i rc
	local times=() rss=0 cmd
	eval "cmd=(${tool_cmd[$name]})"
	for ((i = 0; i < runs; i++)); do
		run_once "$mode" "$input" "${tool_dest[$name]}" "${cmd[@]}"
		rc=$?
		# 123: xargs, some invocation exited 1 to 125; with nothing on
		# stderr that was a 1 (nothing found)
		[ $rc = 123 ] && [ ! -s "$OUT/stderr.txt" ] && rc=1
		case $rc in
		0 | 1) ;;
		124) echo "timeout"; return ;;
		*) say "$name ($mode): exit $rc: $(head -c 300 "$OUT/stderr.txt")"
			echo "error"; return ;;
		esac
		times+=("$T_US")
		[ "$RSS_KB" != - ] && [ "$RSS_KB" -gt "$rss" ] && rss=$RSS_KB
	done
	local med
	med=$(printf '%s\n' "${times[@]}" | median)
	awk -v b="$bytes" -v us="$med" -v kb="$rss" 'BEGIN {
		printf "%.1f %s %.4f\n", b / us, (kb > 0 ? sprintf("%.1f", kb / 1024) : "-"), us / 1e6 }'
}

# rows: "TOOL|MODE|SIZE|MB/s|RSS|seconds"
rows=()
for size in $SIZES; do
	input=$(input_file "$size")
	[ -n "$input" ] || exit 2
	bytes=$(stat -c %s "$input")
	runs=$RUNS
	[ "$bytes" -ge $((1 << 30)) ] && [ "$runs" -gt 3 ] && runs=3
	cat "$input" >/dev/null # into the page cache
	for mode in file pipe; do
		for name in "${tool_names[@]}"; do
			if [ "$name" = oomdiag ] && [ $oomdiag_ok = 0 ]; then
				rows+=("$name|$mode|$size|pending|pending|")
				continue
			fi
			say "$name, $mode, $size: $runs runs"
			read -r mbs rss secs <<<"$(measure "$name" "$mode" "$input" "$bytes" "$runs")"
			rows+=("$name|$mode|$size|$mbs|${rss:-}|${secs:-}")
		done
	done
done

# --- many small files ---

many_rows=()
if [ "$MANY" -gt 0 ]; then
	dir=$OUT/many-$MANY-seed$SEED
	if [ ! -d "$dir" ] || [ "$GENLOG" -nt "$dir" ] ||
		[ "$(find "$dir" -type f | wc -l)" != "$MANY" ]; then
		say "generating $dir"
		rm -rf "$dir" && mkdir -p "$dir" && "$GENLOG" -d "$dir" "$MANY" "$SEED" || exit 2
	fi
	many_bytes=$(find "$dir" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
	find "$dir" -type f -print0 | xargs -0 cat >/dev/null
	# NAME MODE: rg and grep walk the directory themselves; the others get
	# the files from find | xargs, as many per invocation as fit
	many=("cat|xargs" "oomdiag|xargs")
	tool_cmd["oomdiag-ndjson"]=$(printf '%q ' "$OOMDIAG" --format ndjson)
	tool_dest["oomdiag-ndjson"]=$OUT/stdout.txt
	if [ -n "${tool_cmd["rg"]:-}" ]; then
		tool_cmd["rg -j1"]="${tool_cmd["rg"]}-j1 "
		tool_dest["rg -j1"]=$OUT/stdout.txt
		many+=("rg|file" "rg -j1|file")
	fi
	if [ -n "${tool_cmd["grep -E"]:-}" ]; then
		tool_cmd["grep -E -r"]="${tool_cmd["grep -E"]}-r "
		tool_dest["grep -E -r"]=$OUT/stdout.txt
		many+=("grep -E -r|file")
	fi
	for entry in "${many[@]}"; do
		name=${entry%|*} mode=${entry#*|}
		key=$name
		[ "$name" = oomdiag ] && key=oomdiag-ndjson
		if [ "$name" = oomdiag ] && [ $oomdiag_ok = 0 ]; then
			many_rows+=("$name|pending|pending|")
			continue
		fi
		say "$name, $MANY files: $RUNS runs"
		read -r mbs rss secs <<<"$(measure "$key" "$mode" "$dir" "$many_bytes" "$RUNS")"
		if [ "$name" = oomdiag ] && [ -n "${secs:-}" ]; then
			say "oomdiag printed $(wc -l <"$OUT/stdout.txt") ndjson jobs for $MANY files"
		fi
		many_rows+=("$name|$mbs|${rss:-}|${secs:-}")
	done
fi

# --- start-up: many runs on a 1 KiB log ---

startup_rows=()
if [ "$STARTUP" -gt 0 ]; then
	small=$(input_file 1K)
	[ -n "$small" ] || exit 2
	for name in oomdiag pcre2grep "grep -E" rg; do
		[ -n "${tool_cmd[$name]:-}" ] || continue
		if [ "$name" = oomdiag ] && [ $oomdiag_ok = 0 ]; then
			startup_rows+=("$name|pending|pending")
			continue
		fi
		say "$name: start-up, $STARTUP runs"
		if have hyperfine; then
			hyperfine -N --runs "$STARTUP" --warmup 5 -i --output=pipe \
				--export-json "$OUT/hyperfine.json" \
				"${tool_cmd[$name]}$(printf '%q' "$small")" >/dev/null 2>&1
			startup_rows+=("$name|$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print("%.2f|%.2f ± %.2f" % (r["median"] * 1e3, r["mean"] * 1e3, r["stddev"] * 1e3))
' "$OUT/hyperfine.json")")
		else
			eval "cmd=(${tool_cmd[$name]})"
			t0=$(now_us)
			for ((i = 0; i < STARTUP; i++)); do
				"${cmd[@]}" "$small" >"$OUT/stdout.txt" 2>/dev/null
			done
			t1=$(now_us)
			startup_rows+=("$name|-|$(awk -v us=$((t1 - t0)) -v n="$STARTUP" \
				'BEGIN { printf "%.2f", us / n / 1e3 }')")
		fi
	done
fi

# --- report ---

ratio() { # MB/s of a row, MB/s of oomdiag's row
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (b == "pending") print "pending"
		else if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b
		else print "-" }'
}

{
	echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) CPUs" \
		"($(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'))," \
		"$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) RAM, Linux $(uname -r);" \
		"load average before the run: $load_before."
	echo
	version=pending
	[ $oomdiag_ok = 1 ] && version=$("$OOMDIAG" --version 2>/dev/null | head -n 1)
	echo "Versions: ${version:-oomdiag: no --version};" \
		"$(have rg && rg --version 2>/dev/null | head -n 1);" \
		"$(have grep && grep --version 2>/dev/null | head -n 1);" \
		"$(have pcre2grep && pcre2grep --version 2>/dev/null | head -n 1);" \
		"LC_ALL=${LC_ALL:-unset}."
	echo
	echo "Patterns: $(head -n 1 "$OUT/patterns.txt"); rg got $n_rg, grep -E got $n_ere," \
		"pcre2grep got $n_pcre (bench/out/patterns.txt says why the others were left out)."
	echo
	echo "| tool | mode | size | MB/s | peak RSS MiB | ratio vs oomdiag |"
	echo "| --- | --- | --- | ---: | ---: | ---: |"
	for row in "${rows[@]}"; do
		IFS='|' read -r name mode size mbs rss _ <<<"$row"
		base=
		for other in "${rows[@]}"; do
			IFS='|' read -r oname omode osize ombs _ <<<"$other"
			[ "$oname|$omode|$osize" = "oomdiag|$mode|$size" ] && base=$ombs
		done
		echo "| $name | $mode | $size | $mbs | $rss | $(ratio "$mbs" "$base") |"
	done
	if [ ${#many_rows[@]} -gt 0 ]; then
		echo
		echo "Many files: $MANY logs of 2-8 KiB, $(awk -v b="$many_bytes" 'BEGIN { printf "%.1f", b / 1048576 }') MiB in all."
		echo
		echo "| tool | files/s | MB/s | seconds | peak RSS MiB | ratio vs oomdiag |"
		echo "| --- | ---: | ---: | ---: | ---: | ---: |"
		base=
		for row in "${many_rows[@]}"; do
			IFS='|' read -r name mbs _ <<<"$row"
			[ "$name" = oomdiag ] && base=$mbs
		done
		for row in "${many_rows[@]}"; do
			IFS='|' read -r name mbs rss secs <<<"$row"
			fps=$(awk -v s="$secs" -v n="$MANY" 'BEGIN { if (s + 0 > 0) printf "%.0f", n / s; else print "pending" }')
			echo "| $name | $fps | $mbs | ${secs:-pending} | $rss | $(ratio "$mbs" "$base") |"
		done
	fi
	if [ ${#startup_rows[@]} -gt 0 ]; then
		echo
		echo "Start-up: $STARTUP runs on a 1 KiB log."
		echo
		echo "| tool | median ms/run | mean ± sd ms |"
		echo "| --- | ---: | ---: |"
		for row in "${startup_rows[@]}"; do
			IFS='|' read -r name med mean <<<"$row"
			echo "| $name | $med | $mean |"
		done
	fi
} | tee "$RESULTS"
