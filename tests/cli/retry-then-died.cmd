$OOMDIAG --no-builtin-rules -r tests/data/rules -r tests/cli/data/recovery-rules.json tests/cli/data/retry-died.log
