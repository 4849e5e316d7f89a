printf '%s\n' 'OSError: (External) CUDA error(2), out of memory.' | $OOMDIAG --trace -
