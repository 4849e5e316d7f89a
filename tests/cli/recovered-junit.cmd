$OOMDIAG --no-builtin-rules -r tests/data/rules -r tests/cli/data/recovery-rules.json --format junit tests/cli/data/recovered.log tests/cli/data/recovered-then-crash.log
