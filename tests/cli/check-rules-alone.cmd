$OOMDIAG --check-rules --no-builtin-rules tests/cli/data/user-rules
