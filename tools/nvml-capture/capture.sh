#!/bin/bash
# Captures for issue 23 on a GPU host: runs from the kit's folder, writes to $OUT.
K=$(cd "$(dirname "$0")" && pwd); O=${OUT:?}; cd "$K"
OD="$K/oomdiag"
if ! "$OD" --version >/dev/null 2>&1; then OD="$K/lib/ld-linux-x86-64.so.2 --library-path $K/lib $K/oomdiag"; fi
log() { echo "=== $(date -u +%T) $*"; }
{
log env; uname -a; nvidia-smi; nvidia-smi -q | grep -i -E "serial|bus id|driver version" | head; python3 -c "import torch;print(torch.__version__, torch.cuda.get_device_name())"; which py-spy; $OD --version; hostname
log sanity
timeout 60 $OD run --always --trace --facts $O/sanity.facts -- python3 -c "import torch; x=torch.ones(1<<28, device='cuda'); print('sum', x.sum().item())" 2> $O/sanity.report.txt; echo rc=$?
cat $O/sanity.facts
log A1 context-creation with another process holding all but 64 MiB
rm -f /tmp/ready; python3 holder.py 64 /tmp/ready 120 > $O/A1.holder.txt 2>&1 & H=$!
for i in $(seq 60); do [ -f /tmp/ready ] && break; sleep 0.5; done; nvidia-smi > $O/A1.nvidia-smi.txt
timeout 120 $OD run --log $O/A1.log --facts $O/A1.facts -- python3 train.py 8192 4096 > /dev/null 2> $O/A1.report.txt; echo rc=$?
kill $H; wait $H 2>/dev/null; cat $O/A1.holder.txt; cat $O/A1.facts; tail -5 $O/A1.log
log A2 pytorch OOM with another process holding all but 6 GiB
rm -f /tmp/ready; python3 holder.py 6144 /tmp/ready 120 > $O/A2.holder.txt 2>&1 & H=$!
for i in $(seq 60); do [ -f /tmp/ready ] && break; sleep 0.5; done; nvidia-smi > $O/A2.nvidia-smi.txt
timeout 120 $OD run --log $O/A2.log --facts $O/A2.facts -- python3 train.py 8192 4096 > /dev/null 2> $O/A2.report.txt; echo rc=$?
kill $H; wait $H 2>/dev/null; cat $O/A2.facts; tail -3 $O/A2.log
log B leftover context 60 GiB
rm -f /tmp/ghostpid; python3 ghost.py 60 /tmp/ghostpid > $O/B.ghost.txt 2>&1; sleep 2; cat $O/B.ghost.txt; G=$(cat /tmp/ghostpid)
nvidia-smi > $O/B.nvidia-smi.txt; nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv >> $O/B.nvidia-smi.txt; cat $O/B.nvidia-smi.txt
timeout 120 $OD run --log $O/B.log --facts $O/B.facts -- python3 train.py 8192 4096 > /dev/null 2> $O/B.report.txt; echo rc=$?
kill -9 $G; sleep 2; cat $O/B.facts; tail -3 $O/B.log; nvidia-smi --query-gpu=memory.used --format=csv
log C plain OOM, card to itself
timeout 150 $OD run --log $O/C.log --facts $O/C.facts -- python3 train.py 8192 4096 > /dev/null 2> $O/C.report.txt; echo rc=$?
cat $O/C.facts; tail -3 $O/C.log
log D stall idle
S=$(date +%s.%N); timeout 60 $OD run --stall=3s --stall-signal=TERM --facts $O/D.facts -- python3 stallgpu.py > $O/D.out 2> $O/D.report.txt; echo rc=$? after $(echo "$(date +%s.%N) - $S" | bc) s
cat $O/D.facts
log E stall busy, must not report
timeout 60 $OD run --stall=2s --stall-signal=TERM --facts $O/E.facts -- python3 stallgpu.py busy 6 > $O/E.out 2> $O/E.report.txt; echo rc=$?
cat $O/E.out $O/E.report.txt | head; grep stall $O/E.facts
log F bench
for r in 1 2 3 4 5; do
  for m in plain off on; do
    S=$(date +%s.%N)
    case $m in
      plain) python3 bench.py 2000 > $O/F.$m.$r.txt 2>&1;;
      off) $OD run --no-nvml -- python3 bench.py 2000 > $O/F.$m.$r.txt 2>&1;;
      on) $OD run --facts $O/F.$m.$r.facts -- python3 bench.py 2000 > $O/F.$m.$r.txt 2>&1;;
    esac
    echo "$m $r $(grep BENCH $O/F.$m.$r.txt) wall $(echo "$(date +%s.%N) - $S" | bc)"
  done
done | tee $O/F.summary.txt
grep samples $O/F.on.*.facts
log done
} > $O/capture.txt 2>&1
