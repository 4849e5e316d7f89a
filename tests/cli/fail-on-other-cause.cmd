$OOMDIAG --no-builtin-rules -r tests/data/rules -q --fail-on nccl-timeout tests/cli/data/oom.log
