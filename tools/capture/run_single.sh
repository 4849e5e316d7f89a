#!/bin/bash
# Capture real single-GPU failure logs (first device call, kind nvidia-h200).
# usage: bash tools/capture/run_single.sh LOGDIR
# Each scenario's combined stdout+stderr goes to LOGDIR/<name>.log; its exit
# status and duration to LOGDIR/_status.tsv. No scenario can stop the others.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
S=$HERE/scenarios
L=${1:-/tmp/capture/logs}
mkdir -p "$L" /tmp/capture/work
export PYTHONUNBUFFERED=1 NCCL_DEBUG=WARN
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
START=$(date +%s)
DEADLINE=${DEADLINE:-430}   # seconds after which remaining scenarios are skipped

run() {  # run NAME TIMEOUT CMD...
  local name=$1 to=$2; shift 2
  if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $name "* ]]; then return; fi
  local el=$(( $(date +%s) - START ))
  if (( el > DEADLINE )); then
    printf '%s\tSKIPPED\t-\n' "$name" >> "$L/_status.tsv"; return
  fi
  local t0=$(date +%s)
  echo ">>> [$el s] $name"
  ( cd /tmp/capture/work && timeout -k 10 "$to" "$@" ) > "$L/$name.log" 2>&1 < /dev/null
  local rc=$?
  printf '%s\t%s\t%ss\n' "$name" "$rc" "$(( $(date +%s) - t0 ))" >> "$L/_status.tsv"
  echo "<<< $name rc=$rc"
}

probe() {
  date -u; uname -a; nproc; free -g; df -h /dev/shm /tmp
  echo "--- nvidia-smi"; nvidia-smi
  echo "--- python"; which python3; python3 --version
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "cudnn", torch.backends.cudnn.version(), "nccl", torch.cuda.nccl.version(), "gpus", torch.cuda.device_count())'
  python3 -c 'import numpy; print("numpy", numpy.__version__)'
  python3 -c 'import triton; print("triton", triton.__version__)'
  python3 -c 'import cupy; print("cupy", cupy.__version__)'
  python3 -c 'import jax; print("jax", jax.__version__, jax.devices())'
  python3 -c 'import tensorflow as tf; print("tensorflow", tf.__version__)'
  python3 -c 'import lightning; print("lightning", lightning.__version__)'
  python3 -c 'import transformers; print("transformers", transformers.__version__)'
  echo "--- pip"; python3 -m pip list 2>/dev/null | grep -i -E 'torch|tensorflow|jax|cupy|vllm|lightning|transformers|triton|numpy|nccl|cuda-runtime|tqdm'
  echo "--- misc"; cat /proc/sys/vm/overcommit_memory; stat -fc %T /sys/fs/cgroup; ls /sys/fs/cgroup | head -30
  which gcc cc nvcc unshare dmesg; ulimit -a
  env | grep -E '^(NCCL|TORCH|CUDA|PYTORCH|XLA|JAX)' | sort
}

run probe 120 bash -c "$(declare -f probe); probe"
run clean-run 90 python3 "$S/clean_run.py"
run pytorch-oom-forward-firststep 90 python3 "$S/oom_forward_firststep.py"
run pytorch-oom-backward-late 120 python3 "$S/oom_backward_late.py"
# variant (run in the second call): expandable segments, so the late OOM is pure capacity
run pytorch-oom-backward-late-expandable 150 env PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True SEQ_STEP=300 python3 "$S/oom_backward_late.py"
run pytorch-oom-fragmentation 90 python3 "$S/oom_fragmentation.py"
run pytorch-oom-memory-fraction 90 python3 "$S/oom_memory_fraction.py"
run pytorch-oom-other-process 180 bash "$S/other_process.sh" "$L"
run pytorch-device-assert-embedding 90 python3 "$S/device_assert_embedding.py"
run pytorch-device-assert-crossentropy 90 python3 "$S/device_assert_crossentropy.py"
run dataloader-killed 90 python3 "$S/dataloader_killed.py"
run dataloader-shm 90 bash "$S/shm.sh"
run host-memoryerror-numpy 60 python3 "$S/host_numpy_memoryerror.py"
run host-memoryerror-torch-cpu 60 python3 "$S/host_torch_cpu_alloc.py"
run host-memoryerror-python 60 python3 "$S/host_python_memoryerror.py"
run import-error 60 python3 "$S/import_error.py"
run shape-mismatch 60 python3 "$S/shape_mismatch.py"
run pytorch-illegal-address-triton 120 python3 "$S/illegal_address_triton.py"
run cupy-illegal-address 90 python3 "$S/illegal_address_cupy.py"
run cupy-oom 90 python3 "$S/cupy_oom.py"
run jax-oom 150 python3 "$S/jax_oom.py"
run host-oom-kill 150 bash "$S/host_oom_kill.sh" "$L"
run crash-segfault 60 bash "$S/crash_segfault_job.sh"
run lightning-oom 150 python3 "$S/lightning_oom.py"
run hf-trainer-oom 150 python3 "$S/hf_trainer_oom.py"
echo "total $(( $(date +%s) - START ))s"
nvidia-smi > "$L/_nvidia-smi-end.log" 2>&1
