#!/bin/bash
# job script for crash-segfault
echo "job started at $(date -u +%FT%TZ)"
python3 "$(dirname "$0")/crash_segfault.py"
rc=$?
echo "python exited with code $rc"
exit $rc
