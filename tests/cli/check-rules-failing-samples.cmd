$OOMDIAG --check-rules tests/cli/data/broken-samples.json
