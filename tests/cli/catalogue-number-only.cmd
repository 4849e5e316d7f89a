printf '%s\n' 'Check failed: error == cudaSuccess (77 vs. 0)' | $OOMDIAG --trace -
