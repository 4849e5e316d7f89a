$OOMDIAG --files-from=tests/cli/data/no-such-list.txt
