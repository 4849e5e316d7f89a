$OOMDIAG --lang=zh-Hans fixtures/device-assert-nll-rank0-ms-swift.log
