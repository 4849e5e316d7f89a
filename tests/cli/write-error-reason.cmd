$OOMDIAG --no-builtin-rules -r tests/data/rules tests/cli/data/oom.log > /dev/full
