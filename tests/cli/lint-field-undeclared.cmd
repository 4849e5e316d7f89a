$OOMDIAG --check-rules tests/cli/data/lint/fields.json
