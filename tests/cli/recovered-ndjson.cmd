$OOMDIAG --no-builtin-rules -r tests/data/rules -r tests/cli/data/recovery-rules.json --format ndjson tests/cli/data/recovered.log tests/cli/data/recovered-then-crash.log
