LC_ALL= LANG=zh_TW.UTF-8 $OOMDIAG fixtures/host-oom-kill-dmesg.log
