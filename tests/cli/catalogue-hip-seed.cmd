printf '%s\n' 'RuntimeError: HIP error: HIP_ERROR_OUT_OF_MEMORY' | $OOMDIAG -
