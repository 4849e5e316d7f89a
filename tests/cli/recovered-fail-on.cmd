$OOMDIAG --no-builtin-rules -r tests/data/rules -r tests/cli/data/recovery-rules.json -q --fail-on gpu-oom tests/cli/data/recovered.log
