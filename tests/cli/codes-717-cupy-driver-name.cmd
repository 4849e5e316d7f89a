printf '%s\n' 'cupy_backends.cuda.api.driver.CUDADriverError: CUDA_ERROR_INVALID_ADDRESS_SPACE: operation not supported on global/shared address space' | $OOMDIAG -
