$OOMDIAG --no-builtin-rules -r tests/data/rules tests/cli/data/oom.log tests/cli/data/oom.log tests/cli/data/oom.log | head -1
