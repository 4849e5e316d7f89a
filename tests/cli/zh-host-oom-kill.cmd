LC_ALL= LANG=zh_CN.UTF-8 $OOMDIAG fixtures/host-oom-kill-dmesg.log
