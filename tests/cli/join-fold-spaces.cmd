grep -h 'CUDA out of memory' fixtures/pytorch-oom-backward-late.log | fold -s -w 72 | sed 's/ *$//' | $OOMDIAG -
