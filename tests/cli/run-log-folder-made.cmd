d=$(mktemp -d) && cd "$d" && $OOMDIAG run --log logs/train.log --facts logs/facts.txt -- sh -c 'echo step 1; exit 3'; echo "status $?"; ls logs; cat logs/train.log; cd / && rm -rf "$d"
