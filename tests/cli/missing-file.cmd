$OOMDIAG --no-builtin-rules -r tests/data/rules tests/cli/data/no-such.log tests/cli/data/oom.log
