$OOMDIAG --no-builtin-rules -r tests/data/rules --format github tests/cli/data/ranks
