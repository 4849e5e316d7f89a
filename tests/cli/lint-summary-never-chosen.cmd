$OOMDIAG --check-rules tests/cli/data/lint/summaries.json
