$OOMDIAG --check-rules tests/cli/data/lexicon-user.json
