#!/usr/bin/env bash
# bench/live.sh: how fast output passes through `oomdiag run -- CMD` and
# `oomdiag --tee`, against the same pipeline without oomdiag, and how much
# memory oomdiag holds meanwhile. What it measures: docs/performance.md,
# "Live pass-through".
#
# Environment (all optional):
#   OOMDIAG  the binary (default build/oomdiag)
#   SIZE     the log's size, K/M/G suffix (default 1G)
#   RUNS     runs per row, median taken (default 3)
#   SINK     where the output goes (default bench/out/sink.txt, a file;
#            /dev/null also works)
#   SEED     generator seed (default 1)
set -u -o pipefail
cd "$(dirname "$0")/.." || exit 2
OUT=bench/out
OOMDIAG=${OOMDIAG:-build/oomdiag}
SIZE=${SIZE:-1G}
RUNS=${RUNS:-3}
SINK=${SINK:-$OUT/sink.txt}
SEED=${SEED:-1}
# shellcheck source=bench/lib.sh
. bench/lib.sh

build_genlog || exit 2
bytes=$(to_bytes "$SIZE")
LOG=$OUT/live-$SIZE.log
gen_log "$LOG" "$bytes" "$SEED" || exit 2
cat "$LOG" >/dev/null # into the page cache

# time_run CMD...: prints "WALL_S MAXRSS_KIB" of one run (RSS: GNU time's %M
# of the command it runs, oomdiag itself in the oomdiag rows).
time_run() {
	if [ ${#TIMED[@]} -gt 0 ]; then
		"${TIMED[@]}" "$@" >/dev/null 2>&1
		read_time
		echo "$WALL_S $RSS_KB"
	else # no GNU time: wall time only
		local t0 t1
		t0=$(now_us)
		"$@" >/dev/null 2>&1
		t1=$(now_us)
		awk -v us=$((t1 - t0)) 'BEGIN {printf "%.3f 0\n", us / 1e6}'
	fi
}

# median of the wall times of RUNS runs, and the largest RSS
measure() {
	local walls=() rss=0 i w m
	for ((i = 0; i < RUNS; i++)); do
		read -r w m < <(time_run "$@")
		walls+=("$w")
		((m > rss)) && rss=$m
	done
	echo "$(printf '%s\n' "${walls[@]}" | median) $rss"
}

row() { # NAME CMD...
	local name=$1 wall rss
	shift
	read -r wall rss < <(measure "$@")
	awk -v n="$name" -v b="$bytes" -v w="$wall" -v r="$rss" \
		'BEGIN {printf "| %s | %.2f | %.0f | %.1f |\n", n, w, (w > 0 ? b / w / 1e6 : 0), r / 1024}'
}

echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "input: $LOG ($bytes bytes), sink: $SINK, median of $RUNS runs"
echo
echo "| pipeline | wall s | MB/s | peak RSS MiB (of the command time runs) |"
echo "| --- | --- | --- | --- |"
row 'cat LOG > SINK' sh -c "cat '$LOG' > '$SINK'"
row 'cat LOG \| cat > SINK' sh -c "cat '$LOG' | cat > '$SINK'"
row 'oomdiag run -- cat LOG > SINK' sh -c "'$OOMDIAG' run -- cat '$LOG' > '$SINK'"
row 'cat LOG \| oomdiag --tee > SINK' sh -c "cat '$LOG' | '$OOMDIAG' --tee > '$SINK' 2>'$OUT/tee-diag.txt'"
row 'oomdiag LOG (scan only, for scale)' "$OOMDIAG" --format json "$LOG"
# oomdiag's own RSS (not the shell's): run it under time directly
read -r _ rss_run < <(measure "$OOMDIAG" run -- cat "$LOG")
echo
echo "oomdiag run's own peak RSS: $((rss_run / 1024)) MiB"
"$OOMDIAG" run --always --format json --report "$OUT/run-report.json" -- cat "$LOG" >"$SINK" 2>"$OUT/run-warn.txt"
echo "what oomdiag run said about scanning: $(tr '\n' ' ' <"$OUT/run-warn.txt")"
echo "root causes it found: $(python3 -c "import json,sys; d=json.load(open('$OUT/run-report.json')); print([x['cause'] for x in d['jobs'][0]['diagnoses'] if x['role']=='root'])")"
echo "--tee said: $(tr '\n' ' ' <"$OUT/tee-diag.txt" | cut -c1-300)"
