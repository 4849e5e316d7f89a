$OOMDIAG --no-builtin-rules -r tests/data/rules -r tests/cli/data/inject-rules.json --format junit tests/cli/data/injection.log
