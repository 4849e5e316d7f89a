$OOMDIAG --check-rules tests/cli/data/lint/field-kinds.json
