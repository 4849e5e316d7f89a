#!/bin/bash
K=$(cd "$(dirname "$0")" && pwd); O=${OUT:?}; cd "$K"; R=/tmp/r; rm -rf $R; mkdir -p $R
OD="$K/lib/ld-linux-x86-64.so.2 --library-path $K/lib $K/oomdiag"
log() { echo "=== $(date -u +%T) $*"; }
{
log A2 report again is not needed
log B leftover context 60 GiB
rm -f /tmp/ghostpid; python3 ghost.py 60 /tmp/ghostpid > $R/B.ghost.txt 2>&1; sleep 2; cat $R/B.ghost.txt; G=$(cat /tmp/ghostpid)
nvidia-smi > $R/B.nvidia-smi.txt; nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv >> $R/B.nvidia-smi.txt; cat $R/B.nvidia-smi.txt
timeout 120 $OD run --log $R/B.log --facts $R/B.facts -- python3 train.py 8192 4096 > /dev/null 2> $R/B.report.txt; echo rc=$?
kill -9 $G; sleep 2; cat $R/B.facts; tail -3 $R/B.log; nvidia-smi --query-gpu=memory.used --format=csv
log C plain OOM, card to itself
timeout 150 $OD run --log $R/C.log --facts $R/C.facts -- python3 train.py 8192 4096 > /dev/null 2> $R/C.report.txt; echo rc=$?
log D stall idle after step 1
S=$(date +%s%N); timeout 60 $OD run --stall=6s --stall-signal=TERM --log $R/D.log --facts $R/D.facts -- python3 stallgpu.py > /dev/null 2> $R/D.report.txt; echo rc=$? after $(( ($(date +%s%N) - S) / 1000000 )) ms
cat $R/D.facts | grep -v cgroup
log E stall busy, must not report
S=$(date +%s%N); timeout 60 $OD run --stall=4s --stall-signal=TERM --log $R/E.log --facts $R/E.facts -- python3 stallgpu.py busy 12 > /dev/null 2> $R/E.report.txt; echo rc=$? after $(( ($(date +%s%N) - S) / 1000000 )) ms
cat $R/E.log $R/E.report.txt | head; grep -E "stall|util" $R/E.facts
log G sampling CPU cost over a 10 s idle job
for m in off on; do python3 -c "
import resource, subprocess, sys, time
args = '$OD'.split() + ['run'] + (['--no-nvml'] if '$m' == 'off' else []) + ['--', 'sleep', '10']
t = time.time(); subprocess.run(args); w = time.time() - t
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print('$m', 'wall %.3f s' % w, 'user %.3f s' % r.ru_utime, 'sys %.3f s' % r.ru_stime)"; done
log H bench wall
for r in 1; do for m in plain off on; do S=$(date +%s%N); case $m in plain) python3 bench.py 2000 > $R/H.txt 2>&1;; off) $OD run --no-nvml -- python3 bench.py 2000 > $R/H.txt 2>&1;; on) $OD run -- python3 bench.py 2000 > $R/H.txt 2>&1;; esac; echo "$m $r $(grep BENCH $R/H.txt) wall $(( ($(date +%s%N) - S) / 1000000 )) ms"; done; done
log done
} > $R/capture2.txt 2>&1
tar czf $O/r.tgz -C /tmp r
