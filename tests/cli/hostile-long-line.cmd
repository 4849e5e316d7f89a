{ tr -d '\n' < tests/cli/data/hostile/oom-line.txt; head -c 52428800 /dev/zero | tr '\0' a; } | python3 tests/cli/data/hostile/maxrss.py 64 $OOMDIAG --no-builtin-rules -r tests/data/rules
