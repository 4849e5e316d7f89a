$OOMDIAG --lang=zh-Hans tests/cli/data/clean.log
