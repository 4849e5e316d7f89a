$OOMDIAG --check-rules tests/cli/data/lang/mismatched.json
