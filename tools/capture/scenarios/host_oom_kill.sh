#!/bin/bash
# host-oom-kill: run host_oom_kill_job.sh in a cgroup limited to 2 GiB so the
# kernel OOM killer kills python. Kernel messages -> LOGDIR/host-oom-kill-dmesg.log
S=$(cd "$(dirname "$0")" && pwd)
L=${1:-/tmp}
dmesg > "$L/_dmesg_before.txt" 2>&1
if [ -f /sys/fs/cgroup/cgroup.controllers ]; then            # cgroup v2
  echo +memory > /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
  CG=/sys/fs/cgroup/capture_oom; mkdir -p $CG || exit 98
  echo 2G > $CG/memory.max || exit 98
  echo 0 > $CG/memory.swap.max 2>/dev/null
elif [ -d /sys/fs/cgroup/memory ]; then                      # cgroup v1
  CG=/sys/fs/cgroup/memory/capture_oom; mkdir -p $CG || exit 98
  echo 2G > $CG/memory.limit_in_bytes || exit 98
else
  echo "[capture] no memory cgroup available" >&2; exit 98
fi
timeout -k 5 120 bash -c "echo \$\$ > $CG/cgroup.procs && exec bash '$S/host_oom_kill_job.sh'"
rc=$?
sleep 1
dmesg > "$L/_dmesg_after.txt" 2>&1
diff "$L/_dmesg_before.txt" "$L/_dmesg_after.txt" | sed -n 's/^> //p' > "$L/host-oom-kill-dmesg.log"
exit $rc
