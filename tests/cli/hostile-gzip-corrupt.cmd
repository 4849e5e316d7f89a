$OOMDIAG --no-builtin-rules -r tests/data/rules tests/cli/data/hostile/corrupt.log.gz
