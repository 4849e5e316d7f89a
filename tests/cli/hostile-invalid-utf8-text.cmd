$OOMDIAG --no-builtin-rules -r tests/data/rules tests/cli/data/hostile/invalid-utf8.log
