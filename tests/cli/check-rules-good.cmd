$OOMDIAG --check-rules tests/data/rules
