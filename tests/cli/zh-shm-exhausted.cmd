$OOMDIAG --lang=zh_SG fixtures/dataloader-bus-error-shm-pipedream.log
