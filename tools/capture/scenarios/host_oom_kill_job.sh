#!/bin/bash
# job script run inside a memory-limited cgroup (see host_oom_kill.sh)
echo "job started on $(hostname) at $(date -u +%FT%TZ)"
python3 "$(dirname "$0")/host_oom_kill.py"
rc=$?
echo "python exited with code $rc"
exit $rc
