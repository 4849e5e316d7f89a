#!/bin/sh
# A CI step that retries a job only when oomdiag says it may pass
# (docs/decisions.md): at most $ATTEMPTS runs in all (default 3).
#     ci-retry.sh python train.py --smoke
attempts=${ATTEMPTS:-3}
n=1
while :; do
    oomdiag run --exit-by-decision -- "$@"
    rc=$?
    case $rc in
    75 | 76) # retry, retry-elsewhere (a CI runner is "elsewhere" next time, on a fresh one)
        if [ "$n" -lt "$attempts" ]; then
            echo "ci-retry: attempt $n exited $rc; retrying" >&2
            n=$((n + 1))
            continue
        fi ;;
    esac
    exit "$rc"
done
