python3 -c 'print("[" * 10000)' | $OOMDIAG --no-builtin-rules -r /dev/stdin tests/cli/data/oom.log
