# shellcheck shell=bash
# bench/lib.sh: what bench/run.sh and bench/live.sh share: sizes, medians,
# the log generator and one timed run. Sourced, not run; expects OUT (the
# output folder) to be set and the current directory to be the repository.

TIME_BIN=${TIME_BIN:-/usr/bin/time}

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

# the median of the numbers on stdin, one a line
median() {
	sort -g | awk '{ v[NR] = $1 }
		END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# build_genlog: compiles bench/genlog.c into $GENLOG when it is missing or
# older than its source
GENLOG=${GENLOG:-$OUT/genlog}
build_genlog() {
	if [ ! -x "$GENLOG" ] || [ bench/genlog.c -nt "$GENLOG" ]; then
		say "compiling $GENLOG"
		"${CC:-cc}" -O2 -o "$GENLOG" bench/genlog.c || return 2
	fi
}

# gen_log FILE BYTES SEED: (re)generates FILE unless it has BYTES bytes and
# is newer than the generator
gen_log() {
	if [ ! -f "$1" ] || [ "$GENLOG" -nt "$1" ] || [ "$(stat -c %s "$1")" != "$2" ]; then
		say "generating $1"
		"$GENLOG" "$2" "$3" >"$1" || return 2
	fi
}

# TIMED: the command prefix under which GNU time writes "WALL_S PEAK_RSS_KB
# USER_S SYS_S" of the command it runs to $OUT/time.txt; empty without GNU
# time. read_time then sets WALL_S, RSS_KB and CPU_US (user + system in
# microseconds, 10 ms steps), '-' without GNU time.
TIMED=()
[ -x "$TIME_BIN" ] && TIMED=("$TIME_BIN" -f '%e %M %U %S' -o "$OUT/time.txt")
# shellcheck disable=SC2034 # read by the callers
read_time() {
	WALL_S=- RSS_KB=- CPU_US=-
	[ ${#TIMED[@]} -gt 0 ] && read -r WALL_S RSS_KB CPU_US < <(tail -n 1 "$OUT/time.txt" |
		awk '{ printf "%s %d %d\n", $1, $2, ($3 + $4) * 1e6 }')
}
