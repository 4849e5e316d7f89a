printf '%s\n' '  * Fix crash when the GPU runs out of memory in the CUDA backend.' '  * cudaErrorNotReady is returned while the event is pending.' | $OOMDIAG -
