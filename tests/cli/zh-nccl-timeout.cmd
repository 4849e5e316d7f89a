LC_ALL= LANG=zh_CN.UTF-8 $OOMDIAG fixtures/torchrun-nccl-timeout-combined.log
