$OOMDIAG --no-builtin-rules -r tests/data/rules tests/cli/data/hostile/truncated-after-match.log.gz
