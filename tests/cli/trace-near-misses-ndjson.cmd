$OOMDIAG --trace --format ndjson tests/cli/data/near-miss.log
