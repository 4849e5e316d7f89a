grep -ho '^.*Tried to allocate 86.00 MiB (GPU 3;' fixtures/pytorch-oom-cached-backward-titanv.log | $OOMDIAG -
