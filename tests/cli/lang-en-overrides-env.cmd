LC_ALL= LANG=zh_CN.UTF-8 $OOMDIAG --lang=en fixtures/host-oom-kill-dmesg.log
