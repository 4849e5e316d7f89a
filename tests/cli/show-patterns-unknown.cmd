$OOMDIAG --show-patterns no-such-signature
