$OOMDIAG --no-builtin-rules -r tests/cli/data/hostile/wrong-types.json tests/cli/data/oom.log
