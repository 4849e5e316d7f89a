$OOMDIAG --no-builtin-rules -r tests/cli/data/broken-dup.json tests/cli/data/oom.log
