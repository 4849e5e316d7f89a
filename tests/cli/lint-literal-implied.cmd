$OOMDIAG --check-rules tests/cli/data/lint/literal.json
