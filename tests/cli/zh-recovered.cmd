$OOMDIAG --lang zh-Hans fixtures/recovered-lightning-batch-finder-experimental-wsd.log
