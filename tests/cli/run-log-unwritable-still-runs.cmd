$OOMDIAG run --log /proc/self/no/such/train.log --report /proc/self/no/report.txt -- sh -c 'echo the job ran; exit 4' 2>&1; echo "status $?"
