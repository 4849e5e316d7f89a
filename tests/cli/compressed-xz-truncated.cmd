$OOMDIAG --no-builtin-rules -r tests/data/rules tests/cli/data/compressed/truncated.log.xz
