$OOMDIAG --no-builtin-rules -r tests/data/rules --format junit tests/cli/data/clean.log
