LC_ALL= LANG=en_US.UTF-8 LANGUAGE=fr:zh_CN $OOMDIAG fixtures/host-oom-kill-dmesg.log
