$OOMDIAG run --always
