#!/bin/bash
# Run the error-code scenarios (scenarios/codes_*.py) on one GPU, each under
# timeout, each into LOGDIR/<name>.log (stdout and stderr together); then the
# code tables, the library headers and the kernel's NVRM lines.
# Usage: bash tools/capture/run_codes.sh LOGDIR
set -u
LOG=${1:?usage: run_codes.sh LOGDIR}
S=$(cd "$(dirname "$0")" && pwd)/scenarios
mkdir -p "$LOG"
export PYTHONUNBUFFERED=1 NCCL_DEBUG=WARN NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
run() { local name=$1; shift; timeout -k 5 40 "$@" >"$LOG/$name.log" 2>&1; echo -e "$name\t$?" >>"$LOG/_status.tsv"; }
run codes-dump python3 "$S/codes_dump.py"
for m in far neg null sharedgen localgen; do
  run "kernel-fault-cupy-$m" python3 "$S/codes_kernel_fault.py" "$m"
  run "kernel-fault-torch-$m" python3 "$S/codes_kernel_fault.py" "$m" torch
done
for w in malloc cublas cufft cusolver cusparse nvrtc assert; do run "cupy-$w" python3 "$S/codes_cupy_libs.py" "$w"; done
for w in cublas cudnn nccl; do run "exhausted-$w" python3 "$S/codes_exhausted.py" "$w"; done
(dmesg 2>&1 | grep -E 'NVRM|Xid|nvidia' | tail -200) >"$LOG/dmesg-nvrm.log"
find / -xdev \( -name driver_types.h -o -name cuda.h -o -name cublas_api.h -o -name 'cudnn*.h' -o -name cufft.h \
  -o -name cusolver_common.h -o -name cusparse.h -o -name nvrtc.h -o -name nccl.h -o -name curand.h \
  -o -name nvJitLink.h \) -path '*include*' 2>/dev/null | sort >"$LOG/_headers.txt"
