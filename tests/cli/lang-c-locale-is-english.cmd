LC_ALL=C LANGUAGE=zh_CN $OOMDIAG fixtures/host-oom-kill-dmesg.log
