$OOMDIAG --each --one-job tests/cli/data/oom.log
