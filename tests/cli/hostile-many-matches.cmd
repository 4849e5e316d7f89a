yes "$(cat tests/cli/data/hostile/oom-line.txt)" | head -n 2000000 | python3 tests/cli/data/hostile/maxrss.py 64 $OOMDIAG --no-builtin-rules -r tests/data/rules
