#!/bin/bash
# pytorch-oom-other-process: a second process grabs most of the GPU, then the
# training job starts and runs out of memory.
# usage: other_process.sh LOGDIR   (hog output -> LOGDIR/_hog.log)
S=$(cd "$(dirname "$0")" && pwd)
L=${1:-/tmp}
HOG_GIB=${HOG_GIB:-120} HOG_SECONDS=${HOG_SECONDS:-120} python3 "$S/gpu_hog.py" > "$L/_hog.log" 2>&1 &
hog=$!
for i in $(seq 1 90); do grep -q ready "$L/_hog.log" && break; sleep 1; done
nvidia-smi > "$L/_nvidia-smi-other-process.log" 2>&1
timeout -k 5 120 python3 "$S/oom_other_process.py"
rc=$?
kill "$hog" 2>/dev/null; wait "$hog" 2>/dev/null
exit $rc
