$OOMDIAG --no-builtin-rules -r tests/cli/data/broken-semantic.json tests/cli/data/oom.log
