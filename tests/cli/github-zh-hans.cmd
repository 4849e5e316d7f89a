$OOMDIAG --lang zh-Hans --no-builtin-rules -r tests/data/rules --format github tests/cli/data/oom.log tests/cli/data/clean.log tests/cli/data/no-such.log 2>/dev/null | cut -c1-120
