d=$(mktemp -d) && head -c 17000000 /dev/zero | tr '\0' ' ' > "$d/huge.json" && cd "$d" && $OOMDIAG --no-builtin-rules -r huge.json /dev/null; rc=$?; rm -rf "$d"; exit $rc
