cat tests/data/rules/basic.json | $OOMDIAG --no-builtin-rules -r /dev/stdin tests/cli/data/oom.log
