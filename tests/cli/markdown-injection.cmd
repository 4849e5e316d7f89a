$OOMDIAG --no-builtin-rules -r tests/data/rules -r tests/cli/data/inject-rules.json --format markdown tests/cli/data/injection.log
