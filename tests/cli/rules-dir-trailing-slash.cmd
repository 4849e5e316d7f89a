$OOMDIAG --check-rules tests/cli/data/lint/ 2>&1 | grep -c "lint//"; $OOMDIAG --check-rules tests/cli/data/lint/ 2>&1 | grep -m1 -o "tests/cli/data/lint/[a-z-]*.json"
