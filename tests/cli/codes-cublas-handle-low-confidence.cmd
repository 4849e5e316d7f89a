printf '%s\n' 'RuntimeError: CUDA error: CUBLAS_STATUS_INTERNAL_ERROR when calling `cublasCreate(handle)`' | $OOMDIAG -
