#!/bin/bash
# run_probes.sh OUTDIR: every dist_probe.py scenario, each to OUTDIR/<mode>.log
O=${1:?}; mkdir -p $O; D=$(dirname $0)
export PYTHONUNBUFFERED=1 NCCL_DEBUG=WARN NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
tr() { timeout -k 5 ${T:-60} torchrun --nproc_per_node=2 --master_port=$((29500 + RANDOM % 90)) $D/dist_probe.py "$@"; }
TORCH_DISTRIBUTED_DEBUG=DETAIL tr mismatch > $O/mismatch.log 2>&1; echo "mismatch $?" >> $O/_status.tsv
TORCH_DISTRIBUTED_DEBUG=DETAIL tr mismatchop > $O/mismatchop.log 2>&1; echo "mismatchop $?" >> $O/_status.tsv
tr gloo_to > $O/gloo_to.log 2>&1; echo "gloo_to $?" >> $O/_status.tsv
tr barrier_to > $O/barrier_to.log 2>&1; echo "barrier_to $?" >> $O/_status.tsv
tr sigkill > $O/sigkill.log 2>&1; echo "sigkill $?" >> $O/_status.tsv
NCCL_DEBUG=INFO tr nccl_dup > $O/nccl_dup.log 2>&1; echo "nccl_dup $?" >> $O/_status.tsv
timeout 30 python3 $D/dist_probe.py store_to > $O/store_to.log 2>&1; echo "store_to $?" >> $O/_status.tsv
NCCL_SOCKET_IFNAME=nosuchif0 timeout 60 python3 $D/dist_probe.py nccl_if > $O/nccl_if.log 2>&1; echo "nccl_if $?" >> $O/_status.tsv
