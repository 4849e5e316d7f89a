head -c 17000000 /dev/zero | tr '\0' ' ' | $OOMDIAG --no-builtin-rules -r /dev/stdin /dev/null
