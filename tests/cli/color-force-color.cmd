NO_COLOR= FORCE_COLOR=1 $OOMDIAG --no-builtin-rules -r tests/data/rules tests/cli/data/oom.log | head -1 | od -c | head -2
