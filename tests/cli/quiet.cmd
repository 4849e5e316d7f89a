$OOMDIAG --no-builtin-rules -r tests/data/rules -q tests/cli/data/oom.log
