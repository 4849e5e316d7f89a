$OOMDIAG --no-builtin-rules -r tests/data/rules tests/cli/data/hostile/magic-only.log.gz
