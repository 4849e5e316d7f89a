$OOMDIAG -j 2 tests/cli/data/oom.log
