$OOMDIAG --trace tests/cli/data/near-miss.log
