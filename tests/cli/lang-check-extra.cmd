$OOMDIAG --check-rules tests/cli/data/lang/extra.json
