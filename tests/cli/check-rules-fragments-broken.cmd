$OOMDIAG --check-rules tests/cli/data/lint/fragments-broken.json
