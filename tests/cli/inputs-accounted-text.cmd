$OOMDIAG --no-builtin-rules -r tests/data/rules tests/cli/data/no-such.log /proc/self/mem tests/cli/data/hostile/empty.log tests/cli/data/binary.log
