python3 tests/cli/data/hostile/gen_rules.py 3000 | $OOMDIAG --check-rules /dev/stdin
