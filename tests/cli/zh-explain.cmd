$OOMDIAG --lang=zh-Hans --explain shm-exhausted
