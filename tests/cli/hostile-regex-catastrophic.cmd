yes aaaaaaaaaaaaaaaaaaaaaaaaaaaaaab | head -n 1000 | timeout 60 $OOMDIAG --no-builtin-rules -r tests/cli/data/hostile/catastrophic.json
