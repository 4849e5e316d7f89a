python3 tests/cli/data/signals/lines.py "$OOMDIAG" tests/cli/data/signals/C.log
