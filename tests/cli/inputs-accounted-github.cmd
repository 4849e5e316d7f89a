$OOMDIAG --no-builtin-rules -r tests/data/rules --format github tests/cli/data/no-such.log /proc/self/mem tests/cli/data/hostile/empty.log
