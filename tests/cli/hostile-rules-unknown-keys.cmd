$OOMDIAG --check-rules tests/cli/data/hostile/unknown-keys.json
