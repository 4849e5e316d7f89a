$OOMDIAG --help
