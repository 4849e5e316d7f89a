$OOMDIAG --check-rules tests/cli/data/user-rules
