printf '%s\n' 'torch.AcceleratorError: CUDA error: too many resources requested for launch' | $OOMDIAG --lang=zh-Hans -
