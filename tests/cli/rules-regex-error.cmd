$OOMDIAG --no-builtin-rules -r tests/cli/data/broken-regex.json tests/cli/data/oom.log
