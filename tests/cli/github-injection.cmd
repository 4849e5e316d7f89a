$OOMDIAG --no-builtin-rules -r tests/data/rules -r tests/cli/data/inject-rules.json --format github tests/cli/data/injection.log
