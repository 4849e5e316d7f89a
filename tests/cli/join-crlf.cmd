grep -h 'CUDA out of memory' fixtures/pytorch-oom-backward-late.log | fold -w 100 | sed 's/$/\r/' | $OOMDIAG -
