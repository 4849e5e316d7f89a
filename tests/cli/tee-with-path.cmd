$OOMDIAG --tee tests/cli/data/oom.log
