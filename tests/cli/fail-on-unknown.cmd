$OOMDIAG --no-builtin-rules -r tests/data/rules --fail-on nonsense tests/cli/data/oom.log
