$OOMDIAG --lang=zh-Hans --explain usage-error
