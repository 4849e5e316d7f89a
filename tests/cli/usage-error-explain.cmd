$OOMDIAG --explain usage-error
