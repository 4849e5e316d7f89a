$OOMDIAG --check-rules tests/cli/data/hostile/sample-without-line.json
