printf '%s\n' 'RuntimeError: Triton Error [CUDA]: invalid argument' | $OOMDIAG --format json -
