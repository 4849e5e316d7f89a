$OOMDIAG --rules
