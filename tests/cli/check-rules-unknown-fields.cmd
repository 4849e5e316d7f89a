$OOMDIAG --check-rules --no-builtin-rules tests/cli/data/lint/typos.json
