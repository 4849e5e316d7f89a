$OOMDIAG --check-rules tests/cli/data/hostile/catastrophic.json
