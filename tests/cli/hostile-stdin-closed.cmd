$OOMDIAG --no-builtin-rules -r tests/data/rules <&-
