f=$(mktemp) && for i in 1 2 3 4; do $OOMDIAG --each --format ndjson fixtures >> "$f" & done; wait; python3 -c "import json,sys; n=0
for l in open(sys.argv[1]): json.loads(l); n+=1
print(n, \"whole records\")" "$f" | cat; rc=${PIPESTATUS[0]}; rm -f "$f"; exit $rc
