$OOMDIAG --bogus
