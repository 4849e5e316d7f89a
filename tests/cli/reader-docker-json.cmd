$OOMDIAG --no-builtin-rules -r tests/data/rules tests/cli/data/encoded/pytorch-oom-forward-firststep.docker-json.log
