$OOMDIAG --no-builtin-rules -r tests/cli/data/broken-syntax.json tests/cli/data/oom.log
