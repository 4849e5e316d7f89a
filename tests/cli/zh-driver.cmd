$OOMDIAG --lang=zh-Hans fixtures/driver-nvidia-smi-failed.log
