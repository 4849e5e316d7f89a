$OOMDIAG --check-rules tests/cli/data/lint/groups.json
