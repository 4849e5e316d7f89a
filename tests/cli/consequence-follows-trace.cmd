$OOMDIAG --trace fixtures/gpu-oom-thc-then-segfault-vqa.log | grep -E '^(ROOT CAUSE|CONSEQUENCE|RECOVERED)|follows from|ranked as'
