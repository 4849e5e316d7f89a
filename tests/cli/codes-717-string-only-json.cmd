printf '%s\n' 'torch.AcceleratorError: CUDA error: operation not supported on global/shared address space' | $OOMDIAG --format json -
