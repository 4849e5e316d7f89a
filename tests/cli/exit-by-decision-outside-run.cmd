$OOMDIAG --exit-by-decision fixtures/pytorch-oom-thc-train-pcnn.log
