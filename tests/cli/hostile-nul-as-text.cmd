$OOMDIAG --no-builtin-rules -r tests/data/rules -a tests/cli/data/hostile/nul-first-block.log
