$OOMDIAG --no-builtin-rules -r tests/data/rules --format json tests/cli/data/oom.log
