$OOMDIAG --no-builtin-rules -r tests/data/rules --format github $(yes tests/cli/data/oom.log | head -300) | head -1
