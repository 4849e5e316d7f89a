$OOMDIAG --no-builtin-rules -r tests/data/rules tests/cli/data/encoded/pytorch-oom-fragmentation.cri.log
