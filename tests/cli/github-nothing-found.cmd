printf 'step 1\nValueError: bad thing happened\nstep 2\n' > /tmp/od-gh-none.log && $OOMDIAG --format github /tmp/od-gh-none.log; rc=$?; rm -f /tmp/od-gh-none.log; exit $rc
