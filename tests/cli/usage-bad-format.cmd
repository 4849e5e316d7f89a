$OOMDIAG --format xml tests/cli/data/oom.log
