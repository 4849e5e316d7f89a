$OOMDIAG --log job.log tests/cli/data/oom.log
