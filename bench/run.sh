#!/usr/bin/env bash
# bench/run.sh: measure oomdiag's throughput, memory and start-up time next
# to cat, wc -l, Hyperscan (bench/hsbench.c), ripgrep, GNU grep and
# pcre2grep on the same generated training logs, all tools interleaved (each
# round runs every tool once), and judge the goals of issue 14. What it
# measures and how to read it: docs/performance.md.
#
# Environment (all optional):
#   OOMDIAG    the binary to measure (default build/oomdiag); its rows say
#              pending when it does not exist
#   HSBENCH    a prebuilt bench/hsbench (e.g. a static one from another
#              machine); default: bench/out/hsbench, built here when
#              pkg-config finds libhs; no Hyperscan rows without either
#   HSBENCH_STATIC  how bench/out/hsbench is linked: empty (default) shared
#              libraries; 1: libhs.a, libpcre2-8.a and libstdc++ static,
#              glibc shared; full: all static (-static), runs on any x86-64
#              Linux
#   RG GREP PCRE2GREP HYPERFINE TRUE  the peers' binaries (default: rg,
#              grep, pcre2grep, hyperfine from PATH, /bin/true)
#   SIZES      input sizes, with K, M or G suffixes (default "1M 256M")
#   RUNS       runs per measurement, median taken (default 5; at most 3 for
#              inputs of 1 GiB and more; 1 when a run takes over 20 s)
#   MAX_RUN_S  a measurement whose one run would take longer than this many
#              seconds, judged from the tool's speed on the previous size, is
#              skipped (default 60)
#   MANY       files in the many-files test (default 2000; 0 skips it)
#   JOBS       worker processes of the "--each -j" row (default 2, the
#              issue's two cores)
#   STARTUP    runs in the start-up test (default 100; fewer for a tool whose
#              one run takes over 0.3 s; 0 skips the test)
#   STARTUP_CHUNK  start-up runs of one tool in a row before the next tool's
#              turn (default 10)
#   RULES      rule files or directories the peers' patterns come from
#              (default rules)
#   SEED       generator seed (default 1)
#   TIMEOUT    seconds one command may run (default 600)
#   SKIP       tools to leave out, their names as the tables show them,
#              separated by | (e.g. SKIP="rg|grep -E"): the slow peers on a
#              machine where one run of them would take minutes
# Inputs and results go to bench/out/ (not in git); the tables are printed
# and also written to bench/out/results.md, the goals table last.
set -u -o pipefail

cd "$(dirname "$0")/.." || exit 2
OUT=bench/out
OOMDIAG=${OOMDIAG:-build/oomdiag}
HSBENCH=${HSBENCH:-}
HSBENCH_STATIC=${HSBENCH_STATIC:-}
RG=${RG:-rg}
GREP=${GREP:-grep}
PCRE2GREP=${PCRE2GREP:-pcre2grep}
HYPERFINE=${HYPERFINE:-hyperfine}
TRUE=${TRUE:-/bin/true}
export RG GREP PCRE2GREP # bench/patterns.py checks its patterns with these
SIZES=${SIZES:-1M 256M}
RUNS=${RUNS:-5}
MAX_RUN_S=${MAX_RUN_S:-60}
MANY=${MANY:-2000}
JOBS=${JOBS:-2}
STARTUP=${STARTUP:-100}
STARTUP_CHUNK=${STARTUP_CHUNK:-10}
RULES=${RULES:-rules}
SEED=${SEED:-1}
TIMEOUT=${TIMEOUT:-600}
SKIP=${SKIP:-}
RESULTS=$OUT/results.md
LONG_RUN_US=20000000 # one run this long is enough

mkdir -p "$OUT" || exit 2
# shellcheck source=bench/lib.sh
. bench/lib.sh
read -r load_before _ </proc/loadavg
if locale -a 2>/dev/null | grep -qix 'c\.utf-\?8'; then
	export LC_ALL=C.UTF-8
fi

# --- the generator and the inputs ---

build_genlog || exit 2

# input_file SIZE: prints the path of the log of that size, generating it
input_file() {
	local f=$OUT/log-$1-seed$SEED.log
	gen_log "$f" "$(to_bytes "$1")" "$SEED" || exit 2
	echo "$f"
}

# --- the Hyperscan harness ---

# build_hsbench: compiles bench/hsbench.c into $OUT/hsbench, linked as
# HSBENCH_STATIC says, with PCRE2 (exact counts for the prefilter patterns)
# where pkg-config finds it
build_hsbench() {
	local bin=$OUT/hsbench flavor="static=$HSBENCH_STATIC" cflags libs pcre=0 libdir
	pkg-config --exists libpcre2-8 2>/dev/null && pcre=1
	flavor+=" pcre2=$pcre"
	if [ -x "$bin" ] && [ "$bin" -nt bench/hsbench.c ] &&
		[ "$(cat "$bin.flavor" 2>/dev/null)" = "$flavor" ]; then
		return 0
	fi
	cflags="$(pkg-config --cflags libhs)"
	[ $pcre = 1 ] && cflags+=" -DHSBENCH_PCRE2 $(pkg-config --cflags libpcre2-8)"
	libdir=$(pkg-config --variable=libdir libhs)
	case $HSBENCH_STATIC in
	"" | 0)
		libs="$(pkg-config --libs libhs)"
		[ $pcre = 1 ] && libs+=" $(pkg-config --libs libpcre2-8)"
		;;
	1)
		libs="$libdir/libhs.a"
		[ $pcre = 1 ] && libs+=" $(pkg-config --variable=libdir libpcre2-8)/libpcre2-8.a"
		libs+=" -static-libgcc -Wl,-Bstatic -lstdc++ -Wl,-Bdynamic -lm"
		;;
	full) libs="-static -L$libdir -lhs"
		[ $pcre = 1 ] && libs+=" $(pkg-config --libs-only-L libpcre2-8) -lpcre2-8"
		libs+=" -lstdc++ -lm"
		;;
	*) say "HSBENCH_STATIC must be empty, 1 or full"; return 2 ;;
	esac
	say "compiling $bin ($flavor)"
	# shellcheck disable=SC2086 # the flags are words
	"${CC:-cc}" -O2 -std=c11 $cflags -o "$bin" bench/hsbench.c $libs || return 2
	echo "$flavor" >"$bin.flavor"
}

hs_ok=0
if [ -n "$HSBENCH" ]; then
	if [ -x "$HSBENCH" ]; then hs_ok=1; else say "HSBENCH=$HSBENCH is not executable"; fi
elif pkg-config --exists libhs 2>/dev/null; then
	HSBENCH=$OUT/hsbench
	build_hsbench && hs_ok=1
else
	say "skipping Hyperscan: no libhs (apt-get install libhyperscan-dev) and no HSBENCH"
fi

# --- the peers' patterns, from oomdiag's own rules ---

read -r -a rule_paths <<<"$RULES"
say "translating signature patterns from: ${rule_paths[*]}"
hs_arg=()
[ $hs_ok = 1 ] && hs_arg=(--hsbench "$HSBENCH")
rm -f "$OUT/patterns.hs"
if ! python3 bench/patterns.py "${hs_arg[@]}" "$OUT" "${rule_paths[@]}" >/dev/null; then
	say "bench/patterns.py failed"
	exit 2
fi
count_lines() { if [ -f "$1" ]; then wc -l <"$1"; else echo 0; fi; }
n_rg=$(count_lines "$OUT/patterns.rg")
n_rg_simple=$(count_lines "$OUT/patterns.rg-simple")
n_ere=$(count_lines "$OUT/patterns.ere")
n_pcre=$(count_lines "$OUT/patterns.pcre")
n_hs=$(count_lines "$OUT/patterns.hs")
# the database is built on the machine that runs it (it is compiled for
# this CPU): the build is not measured, loading it is
if [ $hs_ok = 1 ] && { [ "$n_hs" = 0 ] ||
	! "$HSBENCH" build "$OUT/patterns.hs" "$OUT/hs.db" 2>"$OUT/hs-build.txt"; }; then
	say "skipping Hyperscan: $(cat "$OUT/hs-build.txt" 2>/dev/null)"
	hs_ok=0
fi

# --- the tools: a name, where the output goes, the command before the input ---

tool_names=()
declare -A tool_cmd tool_dest
add_tool() { # NAME DEST CMD...
	local name=$1 dest=$2
	shift 2
	case "|$SKIP|" in *"|$name|"*)
		say "skipping $name: SKIP names it"
		return
		;;
	esac
	tool_names+=("$name")
	tool_cmd[$name]=$(printf '%q ' "$@")
	tool_dest[$name]=$dest
}
add_tool "cat" /dev/null cat
add_tool "wc -l" /dev/null wc -l
# The matchers write to a regular file, not /dev/null: GNU grep stops at the
# first match when its output is /dev/null.
add_tool "oomdiag" "$OUT/stdout.txt" "$OOMDIAG" --format json
if [ $hs_ok = 1 ]; then
	# -c: hsbench counts the matching lines, the least work a matcher does
	add_tool "hyperscan" "$OUT/stdout.txt" "$HSBENCH" -c "$OUT/hs.db"
fi
if have "$RG" && [ "$n_rg" -gt 0 ]; then
	[ "$n_rg_simple" -gt 0 ] &&
		add_tool "rg simple" "$OUT/stdout.txt" "$RG" --no-config --no-ignore -f "$OUT/patterns.rg-simple"
	add_tool "rg" "$OUT/stdout.txt" "$RG" --no-config --no-ignore -f "$OUT/patterns.rg"
else
	say "skipping rg: not installed or no pattern translated"
fi
if have "$GREP" && [ "$n_ere" -gt 0 ]; then
	add_tool "grep -E" "$OUT/stdout.txt" "$GREP" -E -f "$OUT/patterns.ere"
	# GNU grep is far faster in the C locale; LC_ALL=C is what a user in
	# a hurry would try
	add_tool "grep -E, LC_ALL=C" "$OUT/stdout.txt" env LC_ALL=C "$GREP" -E -f "$OUT/patterns.ere"
else
	say "skipping grep: not installed or no pattern translated"
fi
if have "$PCRE2GREP" && [ "$n_pcre" -gt 0 ]; then
	add_tool "pcre2grep" "$OUT/stdout.txt" "$PCRE2GREP" -f "$OUT/patterns.pcre"
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
	local timed=("${TIMED[@]}" timeout "$TIMEOUT")
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
	read_time
	return $rc
}

# measure INPUT BYTES RUNS KEY...: runs the measurements KEY ("NAME|MODE")
# interleaved: round after round, each round runs every KEY once (starting
# one further each round), so that the machine's noise falls on all alike.
# A KEY stops after an error or a timeout, or after one run of over 20 s.
# Sets RESULT[KEY] to "MB/s RSS_MiB seconds runs MB/s-of-CPU-time", or
# "timeout" or "error".
declare -A RESULT
measure() {
	local input=$1 bytes=$2 runs=$3 i j k key name mode rc
	shift 3
	local keys=("$@") n=$#
	local -A times cpus rss state
	local cmd
	for key in "${keys[@]}"; do
		times[$key]='' cpus[$key]='' rss[$key]=0 state[$key]=run
	done
	for ((i = 0; i < runs; i++)); do
		local ran=0
		for ((j = 0; j < n; j++)); do
			key=${keys[(i + j) % n]}
			[ "${state[$key]}" = run ] || continue
			name=${key%|*} mode=${key##*|}
			eval "cmd=(${tool_cmd[$name]})"
			run_once "$mode" "$input" "${tool_dest[$name]}" "${cmd[@]}"
			rc=$?
			ran=1
			# 123: xargs, some invocation exited 1 to 125; with nothing on
			# stderr that was a 1 (nothing found)
			[ $rc = 123 ] && [ ! -s "$OUT/stderr.txt" ] && rc=1
			case $rc in
			0 | 1) ;;
			124) state[$key]=timeout; continue ;;
			*) say "$name ($mode): exit $rc: $(head -c 300 "$OUT/stderr.txt")"
				state[$key]=error; continue ;;
			esac
			case $name in "oomdiag --"*)
				[ "$i" = 0 ] && say "$name printed $(wc -l <"$OUT/stdout.txt") ndjson jobs for $MANY files" ;;
			esac
			times[$key]+="$T_US "
			cpus[$key]+="$CPU_US "
			[ "$RSS_KB" != - ] && [ "$RSS_KB" -gt "${rss[$key]}" ] && rss[$key]=$RSS_KB
			[ "$T_US" -gt $LONG_RUN_US ] && state[$key]=long
		done
		[ $ran = 1 ] || break
	done
	for key in "${keys[@]}"; do
		case ${state[$key]} in
		timeout | error) RESULT[$key]=${state[$key]}; continue ;;
		esac
		local med cpu
		# shellcheck disable=SC2086 # the runs are words
		med=$(printf '%s\n' ${times[$key]} | median)
		# shellcheck disable=SC2086
		cpu=$(printf '%s\n' ${cpus[$key]} | median)
		k=$(wc -w <<<"${times[$key]}")
		# CPU time is shown only where its 10 ms steps are under 10% of it
		RESULT[$key]=$(awk -v b="$bytes" -v us="$med" -v kb="${rss[$key]}" -v n="$k" -v cpu="$cpu" 'BEGIN {
			printf "%.6g %s %.6g %d %s\n", b / us, (kb > 0 ? sprintf("%.1f", kb / 1024) : "-"),
				us / 1e6, n, (cpu + 0 >= 100000 ? sprintf("%.6g", b / cpu) : "-") }')
	done
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
	# the measurements of this size, both modes, and the rows they fill
	keys=()
	declare -A row_of=()
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
			keys+=("$name|$mode")
			row_of["$name|$mode"]=${#rows[@]}
			rows+=("")
		done
	done
	say "$size: ${#keys[@]} measurements, up to $runs rounds, interleaved"
	measure "$input" "$bytes" "$runs" "${keys[@]}"
	for key in "${keys[@]}"; do
		read -r mbs rss secs n cpu <<<"${RESULT[$key]}"
		is_number "$mbs" && last_rate[$key]=$mbs
		rows[${row_of[$key]}]="$key|$size|$mbs|${rss:-}|${secs:-}|${n:-}|${cpu:-}"
	done
	unset row_of
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
	# one process walks the directory, every file its own job (issue 24)
	tool_cmd["oomdiag --each"]=$(printf '%q ' "$OOMDIAG" --each --format ndjson)
	tool_dest["oomdiag --each"]=$OUT/stdout.txt
	many+=("oomdiag --each|file|oomdiag")
	tool_cmd["oomdiag --each -j $JOBS"]=$(printf '%q ' "$OOMDIAG" --each --format ndjson -j "$JOBS")
	tool_dest["oomdiag --each -j $JOBS"]=$OUT/stdout.txt
	many+=("oomdiag --each -j $JOBS|file|oomdiag")
	if [ -n "${tool_cmd["hyperscan"]:-}" ]; then
		many+=("hyperscan|xargs|hyperscan")
	fi
	for rg_name in "rg simple" "rg"; do
		[ -n "${tool_cmd[$rg_name]:-}" ] || continue
		tool_cmd["$rg_name -j1"]="${tool_cmd[$rg_name]}-j1 "
		tool_dest["$rg_name -j1"]=$OUT/stdout.txt
		many+=("$rg_name|file|$rg_name" "$rg_name -j1|file|$rg_name")
	done
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
	keys=()
	declare -A row_of=()
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
		keys+=("$name|$mode")
		row_of["$name|$mode"]=${#many_rows[@]}
		many_rows+=("")
	done
	say "$MANY files: ${#keys[@]} measurements, up to $RUNS rounds, interleaved"
	measure "$dir" "$many_bytes" "$RUNS" "${keys[@]}"
	for key in "${keys[@]}"; do
		read -r mbs rss secs n cpu <<<"${RESULT[$key]}"
		many_rows[${row_of[$key]}]="${key%|*}|$mbs|${rss:-}|${secs:-}|${n:-}|${cpu:-}"
	done
	unset row_of
fi

# --- start-up: many runs on a 1 KiB log ---

# Each tool runs STARTUP_CHUNK times in a row under hyperfine, then the next
# tool; round after round until each has had its runs. The statistics are
# taken over all of a tool's runs.
startup_rows=()
if [ "$STARTUP" -gt 0 ]; then
	small=$(input_file 1K)
	[ -n "$small" ] || exit 2
	tool_cmd["/bin/true"]=$(printf '%q ' "$TRUE")
	tool_dest["/bin/true"]=$OUT/stdout.txt
	st_names=() st_left=()
	for name in oomdiag hyperscan /bin/true pcre2grep "grep -E" "grep -E, LC_ALL=C" "rg simple" rg; do
		[ -n "${tool_cmd[$name]:-}" ] || continue
		if [ "$name" = oomdiag ] && [ $oomdiag_ok = 0 ]; then
			startup_rows+=("$name|pending|pending|pending|")
			continue
		fi
		eval "cmd=(${tool_cmd[$name]})"
		run_once file "$small" "${tool_dest[$name]}" "${cmd[@]}"
		n=$(awk -v us="$T_US" -v max="$STARTUP" 'BEGIN {
			n = int(30e6 / (us + 1)); if (n > max) n = max; if (n < 5) n = 5; print n }')
		st_names+=("$name")
		st_left+=("$n")
	done
	rm -rf "$OUT/startup" && mkdir -p "$OUT/startup"
	say "start-up: ${st_names[*]}: up to $STARTUP runs each, $STARTUP_CHUNK in a row"
	round=0
	while :; do
		ran=0
		for ((j = 0; j < ${#st_names[@]}; j++)); do
			left=${st_left[$j]}
			[ "$left" -gt 0 ] || continue
			name=${st_names[$j]}
			chunk=$STARTUP_CHUNK
			[ "$chunk" -gt "$left" ] && chunk=$left
			[ "$chunk" -lt 2 ] && chunk=2 # hyperfine's least
			st_left[j]=$((left - chunk))
			ran=1
			if have "$HYPERFINE"; then
				"$HYPERFINE" -N --runs "$chunk" --warmup 1 -i --output=pipe \
					--export-json "$OUT/startup/$j-$round.json" \
					"${tool_cmd[$name]}$(printf '%q' "$small")" >/dev/null 2>&1
			else
				eval "cmd=(${tool_cmd[$name]})"
				for ((i = 0; i < chunk; i++)); do
					t0=$(now_us)
					"${cmd[@]}" "$small" >"$OUT/stdout.txt" 2>/dev/null
					t1=$(now_us)
					echo "$((t1 - t0))" >>"$OUT/startup/$j.us"
				done
			fi
		done
		[ $ran = 1 ] || break
		round=$((round + 1))
	done
	for ((j = 0; j < ${#st_names[@]}; j++)); do
		startup_rows+=("${st_names[$j]}|$(python3 -c '
import glob, json, statistics, sys
d, j = sys.argv[1], sys.argv[2]
t, cpu = [], []
for f in sorted(glob.glob("%s/%s-*.json" % (d, j))):
    r = json.load(open(f))["results"][0]
    t += r["times"]
    cpu += [r["user"] + r["system"]] * len(r["times"])
try:
    t += [int(x) / 1e6 for x in open("%s/%s.us" % (d, j))]
except OSError:
    pass
if not t:
    print("-|-|-|0"); sys.exit()
sd = statistics.stdev(t) if len(t) > 1 else 0
print("%.2f|%.2f ± %.2f|%s|%d" % (statistics.median(t) * 1e3, statistics.mean(t) * 1e3, sd * 1e3,
      "%.2f" % (statistics.mean(cpu) * 1e3) if cpu else "-", len(t)))
' "$OUT/startup" "$j")")
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

# field TABLE KEY COLUMN: column COLUMN (1-based, after the key's columns)
# of the row of rows[] (TABLE rows, key "TOOL|MODE|SIZE") or many_rows[]
# (TABLE many, key "TOOL") or startup_rows[] (TABLE startup, key "TOOL")
field() {
	local row k=1
	case $1 in
	rows) local -n table=rows; k=3 ;;
	many) local -n table=many_rows ;;
	startup) local -n table=startup_rows ;;
	esac
	for row in "${table[@]}"; do
		if [ "$(cut -d'|' -f1-$k <<<"$row")" = "$2" ]; then
			cut -d'|' -f$((k + $3)) <<<"$row"
			return
		fi
	done
}

# verdict VALUE OP LIMIT: PASS or FAIL (OP ge or le), "-" when VALUE is none
verdict() {
	is_number "$1" || { echo "not measured"; return; }
	awk -v v="$1" -v op="$2" -v l="$3" 'BEGIN {
		ok = (op == "ge") ? v >= l : v <= l; print (ok ? "PASS" : "FAIL") }'
}

quot() { # A B: A / B, or empty
	is_number "$1" && is_number "$2" && awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3g", a / b }'
}

# the goals of issue 14, each from this run
goals() {
	local size big='' r r_cpu a b t hs_ms rss=0 x
	for size in $sorted_sizes; do big=$size; done
	echo
	echo "## Goals (issues 14 and 24)"
	echo
	echo "| goal | target | measured | verdict |"
	echo "| --- | ---: | --- | --- |"
	# 1. from a file, against Hyperscan: the largest size both measured
	r='' a='' b=''
	for size in $sorted_sizes; do
		x=$(quot "$(field rows "oomdiag|file|$size" 1)" "$(field rows "hyperscan|file|$size" 1)")
		[ -n "$x" ] && r=$x big=$size a=$(field rows "oomdiag|file|$size" 1) b=$(field rows "hyperscan|file|$size" 1) &&
			r_cpu=$(quot "$(field rows "oomdiag|file|$size" 5)" "$(field rows "hyperscan|file|$size" 5)")
	done
	echo "| \`oomdiag --format json FILE\` vs Hyperscan (\`hsbench -c DB FILE\`), $big | >= 2x |" \
		"${r:+${r}x ($(num "$a") vs $(num "$b") MB/s${r_cpu:+; CPU time ${r_cpu}x})} | $(verdict "$r" ge 2) |"
	# 2. from a pipe, against the pipe floor
	r='' a='' b='' r_cpu=''
	for size in $sorted_sizes; do
		x=$(quot "$(field rows "oomdiag|pipe|$size" 1)" "$(field rows "wc -l|pipe|$size" 1)")
		[ -n "$x" ] && r=$x big=$size a=$(field rows "oomdiag|pipe|$size" 1) b=$(field rows "wc -l|pipe|$size" 1) &&
			r_cpu=$(quot "$(field rows "oomdiag|pipe|$size" 5)" "$(field rows "wc -l|pipe|$size" 5)")
	done
	echo "| \`cat FILE \| oomdiag\` vs \`cat FILE \| wc -l\`, $big | >= 0.8x |" \
		"${r:+${r}x ($(num "$a") vs $(num "$b") MB/s${r_cpu:+; CPU time ${r_cpu}x})} | $(verdict "$r" ge 0.8) |"
	# 3. start-up
	t=$(field startup oomdiag 1)
	x=$(field startup /bin/true 1)
	hs_ms=$(field startup hyperscan 1)
	r_cpu=$(field startup oomdiag 3)
	is_number "$t" || t='' r_cpu=''
	r=$(quot "$t" "$x")
	echo "| start-up median, 1 KiB log with a failure (hyperfine -N), vs \`/bin/true\` | <= 1.5x |" \
		"${r:+${r}x: }${t:+$t ms${r_cpu:+, CPU $r_cpu ms}}${x:+ (/bin/true $x ms, CPU $(field startup /bin/true 3) ms}${hs_ms:+, Hyperscan $hs_ms ms}${x:+)}" \
		"| $(verdict "$r" le 1.5) |"
	# 4. many small logs, against rg -j1 with the simple patterns
	a=$(field many "oomdiag --each" 1)
	b=$(field many "rg simple -j1" 1)
	r=$(quot "$a" "$b")
	r_cpu=$(quot "$(field many "oomdiag --each" 5)" "$(field many "rg simple -j1" 5)")
	echo "| $MANY small logs, \`--each --format ndjson DIR\` vs \`rg -j1\` with the $n_rg_simple simple patterns | >= 1x |" \
		"${r:+${r}x ($(num "$a") vs $(num "$b") MB/s${r_cpu:+; CPU time ${r_cpu}x})} | $(verdict "$r" ge 1) |"
	# 5. -j against one process, both walking the directory
	a=$(field many "oomdiag --each -j $JOBS" 1)
	b=$(field many "oomdiag --each" 1)
	r=$(quot "$a" "$b")
	echo "| $MANY small logs, \`--each -j $JOBS\` vs \`--each\` ($(nproc) CPUs) | >= 1.6x |" \
		"${r:+${r}x ($(num "$a") vs $(num "$b") MB/s)} | $(verdict "$r" ge 1.6) |"
	# 5. peak RSS of every oomdiag row
	for row in "${rows[@]}" "${many_rows[@]}"; do
		IFS='|' read -r name x <<<"$row"
		[ "${name%% *}" = oomdiag ] || continue
		if [ "${name}" = oomdiag ]; then
			x=$(cut -d'|' -f5 <<<"$row")
		else
			x=$(cut -d'|' -f3 <<<"$row")
		fi
		is_number "$x" && awk -v x="$x" -v m="$rss" 'BEGIN { exit !(x > m) }' && rss=$x
	done
	[ "$rss" = 0 ] && rss=''
	echo "| peak RSS, every oomdiag row above | <= 16 MiB | ${rss:+$rss MiB} | $(verdict "$rss" le 16) |"
	echo
	echo "Verdicts judge wall time (MB/s, ms); CPU time is shown where GNU time's 10 ms steps" \
		"allow (at least 0.1 s a run); load average after the run: $(cut -d' ' -f1 /proc/loadavg)."
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
	if [ $hs_ok = 1 ]; then
		link="linked dynamically"
		ldd "$HSBENCH" >/dev/null 2>&1 || link="a static executable"
		versions+=("$("$HSBENCH" --version 2>/dev/null | head -n 1), $link")
	fi
	for peer in "$RG" "$GREP" "$PCRE2GREP" "$HYPERFINE"; do
		have "$peer" && versions+=("$("$peer" --version 2>/dev/null | head -n 1)")
	done
	echo "Versions: $(printf '%s; ' "${versions[@]}")LC_ALL=${LC_ALL:-unset}."
	echo
	# shellcheck disable=SC2028 # the backslashes are meant
	echo "Patterns: $(head -n 1 "$OUT/patterns.txt"); Hyperscan got $n_hs" \
		"($(grep -c '	[a-z]*p[a-z]*	' "$OUT/patterns.hs" 2>/dev/null || echo 0) of them as prefilters)," \
		"rg got $n_rg (rg simple: the $n_rg_simple of them without \\b, \\w or \\s), grep -E got $n_ere," \
		"pcre2grep got $n_pcre (bench/out/patterns.txt says why the others were left out)."
	echo
	echo "Interleaved: each round runs every measurement of a size (both modes) once," \
		"the median of the rounds is taken."
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
			[ "$name" = "oomdiag --each" ] && base=$mbs cbase=$cpu
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
	echo
	echo "Commands (FILE: the input; the many-files rows get DIR, the xargs rows" \
		"\`find DIR -type f -print0 | xargs -0 CMD\`, the pipe rows \`cat FILE | CMD\`):"
	echo
	for name in "${!tool_cmd[@]}"; do
		printf -- '- %s: `%s`\n' "$name" "${tool_cmd[$name]% }"
	done | sort
	goals
} | tee "$RESULTS"
