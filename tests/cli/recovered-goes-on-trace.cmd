$OOMDIAG --trace fixtures/recovered-oom-skipping-batch-minkowski.log | grep -E '^(ROOT CAUSE|CONSEQUENCE|RECOVERED)|recovered:|root caus'
