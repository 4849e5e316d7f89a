#!/bin/bash
# The long fuzz run of issue 22: every harness, 16 processes at once (the
# heavier harnesses two), each with its own seed, on copies of the seed
# corpora, for T seconds; libFuzzer's final stats per process into $OUT.
set -u
T=${T:-420}
P=$(cd "$(dirname "$0")" && pwd)
L="$P/lib/ld-linux-x86-64.so.2 --library-path $P/lib"
mkdir -p "$OUT/logs" "$OUT/artifacts"
nproc > "$OUT/nproc.txt"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
run() { # harness worker
  local h=$1 w=$2 c="/tmp/corpus/$1"
  mkdir -p "$c"
  $L "$P/$h" -max_total_time="$T" -timeout=10 -rss_limit_mb=2048 -seed=$((w * 7919 + 1)) -print_final_stats=1 \
    -artifact_prefix="$OUT/artifacts/$h-$w-" "$c" > "$OUT/logs/$h.$w.log" 2>&1
  echo "$h $w rc=$?" >> "$OUT/status.txt"
}
for h in fuzz_rules fuzz_reader fuzz_scan fuzz_decompress fuzz_utf16 fuzz_container fuzz_join fuzz_expr fuzz_template fuzz_translate fuzz_relay; do
  mkdir -p /tmp/corpus/$h; cp tests/fuzz/corpus/$h/* /tmp/corpus/$h/ 2>/dev/null
  ls /tmp/corpus/$h | wc -l | sed "s/^/$h seeds /" >> "$OUT/corpus.txt"
done
for h in fuzz_scan fuzz_rules fuzz_reader fuzz_translate fuzz_decompress; do run $h 1 & run $h 2 & done
for h in fuzz_utf16 fuzz_container fuzz_join fuzz_expr fuzz_template fuzz_relay; do run $h 1 & done
wait
for h in fuzz_rules fuzz_reader fuzz_scan fuzz_decompress fuzz_utf16 fuzz_container fuzz_join fuzz_expr fuzz_template fuzz_translate fuzz_relay; do
  ls /tmp/corpus/$h | wc -l | sed "s/^/$h after /" >> "$OUT/corpus.txt"
done
for f in "$OUT"/logs/*.log; do
  printf '%s execs=%s cov=%s\n' "$(basename "$f")" "$(sed -n 's/^stat::number_of_executed_units: *//p' "$f" | tail -1)" \
    "$(grep -a -o 'cov: [0-9]*' "$f" | tail -1)"
done | tee "$OUT/summary.txt"
