$OOMDIAG --check-rules tests/cli/data/lang/missing.json
