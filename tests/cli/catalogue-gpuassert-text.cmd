printf '%s\n' 'GPUassert: an illegal memory access was encountered kernel.cu 123' | $OOMDIAG -
