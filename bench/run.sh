#!/usr/bin/env bash
# bench/run.sh: measure oomdiag's throughput, memory and start-up time next
# to cat, wc -l, ripgrep, GNU grep and pcre2grep on the same generated
# training logs. What it measures and how to read it: docs/performance.md.
#
# Environment (all optional):
#   OOMDIAG    the binary to measure (default build/oomdiag); its rows say
#              pending when it does not exist
#   SIZES      input sizes, with K, M or G suffixes (default "1M 100M 1G")
#   RUNS       runs per measurement, median taken (default 5; at most 3 for
#              inputs of 1 GiB and more; 1 when a run takes over 20 s)
#   MAX_RUN_S  a measurement whose one run would take longer than this many
#              seconds, judged from the tool's speed on the previous size, is
#              skipped (default 60)
#   MANY       files in the many-files test (default 10000; 0 skips it)
#   STARTUP    runs in the start-up test (default 100; fewer for a tool whose
#              one run takes over 0.3 s; 0 skips the test)
#   RULES      rule files or directories the peers' patterns come from
#              (default rules)
#   SEED       generator seed (default 1)
#   TIMEOUT    seconds one command may run (default 600)
# Inputs and results go to bench/out/ (not in git); the tables are printed
# and also written to bench/out/results.md.
set -u -o pipefail

cd "$(dirname "$0")/.." || exit 2
OUT=bench/out
OOMDIAG=${OOMDIAG:-build/oomdiag}
SIZES=${SIZES:-1M 100M 1G}
RUNS=${RUNS:-5}
MAX_RUN_S=${MAX_RUN_S:-60}
MANY=${MANY:-10000}
STARTUP=${STARTUP:-100}
RULES=${RULES:-rules}
SEED=${SEED:-1}
TIMEOUT=${TIMEOUT:-600}
TIME_BIN=/usr/bin/time
GENLOG=$OUT/genlog
RESULTS=$OUT/results.md
LONG_RUN_US=20000000 # one run this long is enough

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

# --- the tools: a name, where the output goes, the command before the input ---

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
	# GNU grep is far faster in the C locale; LC_ALL=C is what a user in
	# a hurry would try
	add_tool "grep -E, LC_ALL=C" "$OUT/stdout.txt" env LC_ALL=C grep -E -f "$OUT/patterns.ere"
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

# run_once MODE INPUT DEST CMD...: one run; sets T_US (wall), CPU_US (user +
# system, 10 ms steps) and RSS_KB (peak, of the largest process); returns
# the command's exit status. MODE file: CMD INPUT; pipe: cat INPUT | CMD;
# xargs: find INPUT -type f | xargs CMD.
run_once() {
	local mode=$1 input=$2 dest=$3 t0 t1 rc
	shift 3
	local timed=(timeout "$TIMEOUT")
	[ -x "$TIME_BIN" ] && timed=("$TIME_BIN" -f '%e %M %U %S' -o "$OUT/time.txt" "${timed[@]}")
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
	RSS_KB=- CPU_US=-
	[ -x "$TIME_BIN" ] && read -r RSS_KB CPU_US < <(tail -n 1 "$OUT/time.txt" |
		awk '{ printf "%d %d\n", $2, ($3 + $4) * 1e6 }')
	return $rc
}

# measure NAME MODE INPUT BYTES RUNS: prints "MB/s RSS_MiB seconds runs
# MB/s-of-CPU-time",
# or "timeout" or "error"
measure() {
	local name=$1 mode=$2 input=$3 bytes=$4 runs=$5 i rc
	local times=() cpus=() rss=0 cmd
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
		cpus+=("$CPU_US")
		[ "$RSS_KB" != - ] && [ "$RSS_KB" -gt "$rss" ] && rss=$RSS_KB
		[ "$T_US" -gt $LONG_RUN_US ] && break
	done
	local med cpu
	med=$(printf '%s\n' "${times[@]}" | median)
	cpu=$(printf '%s\n' "${cpus[@]}" | median)
	# CPU time is shown only where its 10 ms steps are under 10% of it
	awk -v b="$bytes" -v us="$med" -v kb="$rss" -v n="${#times[@]}" -v cpu="$cpu" 'BEGIN {
		printf "%.6g %s %.6g %d %s\n", b / us, (kb > 0 ? sprintf("%.1f", kb / 1024) : "-"),
			us / 1e6, n, (cpu + 0 >= 100000 ? sprintf("%.6g", b / cpu) : "-") }'
}

# too_slow KEY BYTES: true (and prints the projected seconds) when the rate
# last measured under KEY says one run on BYTES would exceed MAX_RUN_S
declare -A last_rate
too_slow() {
	local rate=${last_rate[$1]:-}
	[ -n "$rate" ] || return 1
	awk -v b="$2" -v r="$rate" -v max="$MAX_RUN_S" 'BEGIN {
		s = b / (r * 1e6); if (s > max) { printf "%.0f", s; exit 0 } exit 1 }'
}

is_number() { [[ $1 =~ ^[0-9][0-9.e+-]*$ ]]; }

# rows: "TOOL|MODE|SIZE|MB/s|RSS|seconds|runs|MB/s of CPU time"
rows=()
sorted_sizes=$(for s in $SIZES; do echo "$(to_bytes "$s") $s"; done | sort -n | awk '{ print $2 }')
for size in $sorted_sizes; do
	input=$(input_file "$size")
	[ -n "$input" ] || exit 2
	bytes=$(stat -c %s "$input")
	runs=$RUNS
	[ "$bytes" -ge $((1 << 30)) ] && [ "$runs" -gt 3 ] && runs=3
	cat "$input" >/dev/null # into the page cache
	for mode in file pipe; do
		for name in "${tool_names[@]}"; do
			if [ "$name" = oomdiag ] && [ $oomdiag_ok = 0 ]; then
				rows+=("$name|$mode|$size|pending|pending|||pending")
				continue
			fi
			if projected=$(too_slow "$name|$mode" "$bytes"); then
				say "$name, $mode, $size: skipped, one run would take about $projected s"
				rows+=("$name|$mode|$size|skipped: ~${projected} s a run||||")
				continue
			fi
			say "$name, $mode, $size: up to $runs runs"
			read -r mbs rss secs n cpu <<<"$(measure "$name" "$mode" "$input" "$bytes" "$runs")"
			key="$name|$mode"
			is_number "$mbs" && last_rate[$key]=$mbs
			rows+=("$name|$mode|$size|$mbs|${rss:-}|${secs:-}|${n:-}|${cpu:-}")
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
	# NAME|MODE|TOOL: grep and rg walk the directory themselves; cat and
	# oomdiag get the files from find | xargs, as many per run as fit;
	# TOOL is the single-file tool whose speed predicts this one's
	many=("cat|xargs|cat")
	tool_cmd["oomdiag --format ndjson"]=$(printf '%q ' "$OOMDIAG" --format ndjson)
	tool_dest["oomdiag --format ndjson"]=$OUT/stdout.txt
	many+=("oomdiag --format ndjson|xargs|oomdiag")
	if [ -n "${tool_cmd["rg"]:-}" ]; then
		tool_cmd["rg -j1"]="${tool_cmd["rg"]}-j1 "
		tool_dest["rg -j1"]=$OUT/stdout.txt
		many+=("rg|file|rg" "rg -j1|file|rg")
	fi
	for grep_name in "grep -E" "grep -E, LC_ALL=C"; do
		[ -n "${tool_cmd[$grep_name]:-}" ] || continue
		tool_cmd["$grep_name -r"]="${tool_cmd[$grep_name]}-r "
		tool_dest["$grep_name -r"]=$OUT/stdout.txt
		many+=("$grep_name -r|file|$grep_name")
	done
	if [ -n "${tool_cmd["pcre2grep"]:-}" ]; then
		tool_cmd["pcre2grep -r"]="${tool_cmd["pcre2grep"]}-r "
		tool_dest["pcre2grep -r"]=$OUT/stdout.txt
		many+=("pcre2grep -r|file|pcre2grep")
	fi
	for entry in "${many[@]}"; do
		IFS='|' read -r name mode base <<<"$entry"
		if [ "$base" = oomdiag ] && [ $oomdiag_ok = 0 ]; then
			many_rows+=("$name|pending|pending|||pending")
			continue
		fi
		if projected=$(too_slow "$base|file" "$many_bytes"); then
			say "$name, $MANY files: skipped, one run would take about $projected s"
			many_rows+=("$name|skipped: ~${projected} s a run||||")
			continue
		fi
		say "$name, $MANY files: up to $RUNS runs"
		read -r mbs rss secs n cpu <<<"$(measure "$name" "$mode" "$dir" "$many_bytes" "$RUNS")"
		if [ "$base" = oomdiag ] && is_number "$mbs"; then
			say "oomdiag printed $(wc -l <"$OUT/stdout.txt") ndjson jobs for $MANY files"
		fi
		many_rows+=("$name|$mbs|${rss:-}|${secs:-}|${n:-}|${cpu:-}")
	done
fi

# --- start-up: many runs on a 1 KiB log ---

startup_rows=()
if [ "$STARTUP" -gt 0 ]; then
	small=$(input_file 1K)
	[ -n "$small" ] || exit 2
	for name in oomdiag pcre2grep "grep -E" "grep -E, LC_ALL=C" rg; do
		[ -n "${tool_cmd[$name]:-}" ] || continue
		if [ "$name" = oomdiag ] && [ $oomdiag_ok = 0 ]; then
			startup_rows+=("$name|pending|pending|pending|")
			continue
		fi
		eval "cmd=(${tool_cmd[$name]})"
		run_once file "$small" "${tool_dest[$name]}" "${cmd[@]}"
		n=$(awk -v us="$T_US" -v max="$STARTUP" 'BEGIN {
			n = int(30e6 / (us + 1)); if (n > max) n = max; if (n < 5) n = 5; print n }')
		say "$name: start-up, $n runs"
		if have hyperfine; then
			hyperfine -N --runs "$n" --warmup 3 -i --output=pipe \
				--export-json "$OUT/hyperfine.json" \
				"${tool_cmd[$name]}$(printf '%q' "$small")" >/dev/null 2>&1
			startup_rows+=("$name|$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print("%.2f|%.2f ± %.2f|%.2f" % (r["median"] * 1e3, r["mean"] * 1e3, r["stddev"] * 1e3,
                              (r["user"] + r["system"]) * 1e3))
' "$OUT/hyperfine.json")|$n")
		else
			t0=$(now_us)
			for ((i = 0; i < n; i++)); do
				"${cmd[@]}" "$small" >"$OUT/stdout.txt" 2>/dev/null
			done
			t1=$(now_us)
			startup_rows+=("$name|-|$(awk -v us=$((t1 - t0)) -v n="$n" \
				'BEGIN { printf "%.2f", us / n / 1e3 }')|-|$n")
		fi
	done
fi

# --- report ---

# three significant digits, no exponent: 5213, 41.6, 0.0912
num() {
	awk -v x="$1" 'BEGIN {
		if (x !~ /^[0-9][0-9.e+-]*$/) { print x; exit }
		if (x >= 100) printf "%.0f", x
		else if (x >= 10) printf "%.1f", x
		else if (x >= 1) printf "%.2f", x
		else if (x > 0) { d = 2; while (x * 10 ^ d < 100) d++; printf "%.*f", d, x }
		else print 0 }'
}

ratio() { # MB/s of a row, MB/s of oomdiag's row
	if [ "$2" = pending ]; then
		echo pending
	elif is_number "$1" && is_number "$2"; then
		num "$(awk -v a="$1" -v b="$2" 'BEGIN { print (b > 0 ? a / b : "-") }')"
	else
		echo -
	fi
}

{
	echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) CPUs" \
		"($(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'))," \
		"$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) RAM, Linux $(uname -r);" \
		"load average before the run: $load_before."
	echo
	version="oomdiag pending"
	[ $oomdiag_ok = 1 ] && version=$("$OOMDIAG" --version 2>/dev/null | head -n 1)
	versions=("${version:-oomdiag: no --version}")
	for peer in rg grep pcre2grep hyperfine; do
		have $peer && versions+=("$($peer --version 2>/dev/null | head -n 1)")
	done
	echo "Versions: $(printf '%s; ' "${versions[@]}")LC_ALL=${LC_ALL:-unset}."
	echo
	echo "Patterns: $(head -n 1 "$OUT/patterns.txt"); rg got $n_rg, grep -E got $n_ere," \
		"pcre2grep got $n_pcre (bench/out/patterns.txt says why the others were left out)."
	echo
	echo "| tool | mode | size | MB/s | peak RSS MiB | runs | ratio vs oomdiag | MB/s of CPU time | ratio |"
	echo "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
	for row in "${rows[@]}"; do
		IFS='|' read -r name mode size mbs rss _ n cpu <<<"$row"
		base='' cbase=''
		for other in "${rows[@]}"; do
			IFS='|' read -r oname omode osize ombs _ _ _ ocpu <<<"$other"
			[ "$oname|$omode|$osize" = "oomdiag|$mode|$size" ] && base=$ombs cbase=$ocpu
		done
		echo "| $name | $mode | $size | $(num "$mbs") | $rss | $n | $(ratio "$mbs" "$base")" \
			"| $(num "$cpu") | $(ratio "$cpu" "$cbase") |"
	done
	if [ ${#many_rows[@]} -gt 0 ]; then
		echo
		echo "Many files: $MANY logs of 2-8 KiB," \
			"$(awk -v b="$many_bytes" 'BEGIN { printf "%.1f", b / 1048576 }') MiB in all."
		echo
		echo "| tool | files/s | MB/s | seconds | peak RSS MiB | runs | ratio vs oomdiag | MB/s of CPU time | ratio |"
		echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
		base='' cbase=''
		for row in "${many_rows[@]}"; do
			IFS='|' read -r name mbs _ _ _ cpu <<<"$row"
			[ "${name%% *}" = oomdiag ] && base=$mbs cbase=$cpu
		done
		for row in "${many_rows[@]}"; do
			IFS='|' read -r name mbs rss secs n cpu <<<"$row"
			fps=$(awk -v s="$secs" -v n="$MANY" 'BEGIN { if (s + 0 > 0) printf "%.0f", n / s; else print "-" }')
			echo "| $name | $fps | $(num "$mbs") | $(num "$secs") | $rss | $n | $(ratio "$mbs" "$base")" \
				"| $(num "$cpu") | $(ratio "$cpu" "$cbase") |"
		done
	fi
	if [ ${#startup_rows[@]} -gt 0 ]; then
		echo
		echo "Start-up: runs on a 1 KiB log."
		echo
		echo "| tool | median ms/run | mean ± sd ms | CPU ms/run (user + sys) | runs |"
		echo "| --- | ---: | ---: | ---: | ---: |"
		for row in "${startup_rows[@]}"; do
			IFS='|' read -r name med mean cpu n <<<"$row"
			echo "| $name | $med | $mean | $cpu | $n |"
		done
	fi
} | tee "$RESULTS"
