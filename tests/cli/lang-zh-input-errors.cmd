$OOMDIAG --lang zh-Hans --no-builtin-rules -r tests/data/rules tests/cli/data/no-such.log /dev/null
