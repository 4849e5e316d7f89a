LC_ALL= LANG=zh_CN.UTF-8 $OOMDIAG fixtures/pytorch-oom-reserved-detectron2-frag.log
