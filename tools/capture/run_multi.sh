#!/bin/bash
# Capture real multi-GPU (torchrun, NCCL) failure logs (second device call,
# kind nvidia-h200-x2). usage: bash tools/capture/run_multi.sh LOGDIR
# Each case gets LOGDIR/<case>/ with torchrun's --log_dir tree under logdir*/
# and the console output in combined*.log.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
S=$HERE/scenarios
L=${1:-/tmp/capture/mlogs}
mkdir -p "$L"
export PYTHONUNBUFFERED=1 NCCL_DEBUG=WARN
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export NCCL_PG_TIMEOUT=60
START=$(date +%s)
st() { printf '%s\t%s\t%ss\n' "$1" "$2" "$(( $(date +%s) - START ))" >> "$L/_status.tsv"; }

{ date -u; nvidia-smi; nvidia-smi topo -m
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "nccl", torch.cuda.nccl.version(), "gpus", torch.cuda.device_count())'
  which torchrun; env | grep -E '^(NCCL|TORCH)' | sort; } > "$L/probe.log" 2>&1

single() {  # single CASE FAIL_MODE TIMEOUT : one torchrun, 2 processes
  local c=$1; mkdir -p "$L/$c"
  echo ">>> [$(( $(date +%s) - START ))s] $c"
  ( cd /tmp && FAIL_MODE=$2 FAIL_RANK=1 FAIL_STEP=5 timeout -k 10 $3 \
      torchrun --nproc_per_node=2 --log_dir "$L/$c/logdir" --redirects 3 --tee 3 "$S/ddp_train.py" ) \
      > "$L/$c/combined.log" 2>&1 < /dev/null
  st "$c" $?
}

twonode() {  # twonode CASE FAIL_MODE PORT : two torchrun agents (nnodes=2), one GPU each
  local c=$1 mode=$2 port=$3; mkdir -p "$L/$c"
  echo ">>> [$(( $(date +%s) - START ))s] $c"
  local n
  for n in 0 1; do
    ( cd /tmp && CUDA_VISIBLE_DEVICES=$n FAIL_MODE=$mode FAIL_RANK=1 FAIL_STEP=5 timeout -k 10 240 \
        torchrun --nnodes=2 --node_rank=$n --nproc_per_node=1 --master_addr=127.0.0.1 --master_port=$port \
        --log_dir "$L/$c/logdir-node$n" --redirects 3 --tee 3 "$S/ddp_train.py" ) \
        > "$L/$c/combined-node$n.log" 2>&1 < /dev/null &
  done
  wait
  st "$c" done
}

single torchrun-oom-rank1 oom 120
single torchrun-sigkill-rank1 sigkill 120
twonode torchrun-oom-rank1-watchdog oom 29611 &
tn=$!
sleep 45
single torchrun-nccl-timeout hang 240
wait $tn
echo "total $(( $(date +%s) - START ))s"
( cd "$L" && find . -type f | sort > _files.txt )
