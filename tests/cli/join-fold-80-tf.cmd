grep -h 'OOM when allocating tensor' fixtures/tf-oom-bfc-k40c-other-process.log | fold -w 80 | $OOMDIAG --format json - | grep -A12 '"evidence"' | grep -E '"(line|rule|device|shape)"'
