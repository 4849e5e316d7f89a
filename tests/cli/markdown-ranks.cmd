$OOMDIAG --no-builtin-rules -r tests/data/rules --format markdown tests/cli/data/ranks
