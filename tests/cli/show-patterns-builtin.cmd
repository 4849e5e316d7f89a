$OOMDIAG --check-rules --show-patterns 'pytorch-oom-reserved-1x'
