$OOMDIAG --no-builtin-rules -r tests/data/rules --format github tests/cli/data/oom.log tests/cli/data/clean.log
