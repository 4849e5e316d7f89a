$OOMDIAG --no-builtin-rules -r tests/data/rules -r tests/cli/data/recovery-rules.json tests/cli/data/recovered-then-crash.log
