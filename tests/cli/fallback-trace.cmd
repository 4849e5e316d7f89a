printf 'step 1\nRuntimeError: HIP error: HIP_ERROR_OUT_OF_MEMORY\n' | $OOMDIAG --trace - | grep -e 'ROOT CAUSE' -e ' matched ' -e 'fallback decided'
