$OOMDIAG --no-builtin-rules -r tests/data/rules --format github tests/cli/data/no-such.log tests/cli/data/oom.log
