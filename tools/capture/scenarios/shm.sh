#!/bin/bash
# dataloader-shm: run the DataLoader job with a 1 MiB /dev/shm in a private
# mount namespace (falls back to an over-mount when unshare is unavailable).
S=$(cd "$(dirname "$0")" && pwd)
if unshare -m true 2>/dev/null; then
  exec unshare -m bash -c "mount -t tmpfs -o size=1M tmpfs /dev/shm && exec python3 '$S/dataloader_shm.py'"
fi
echo "[capture] unshare -m unavailable; over-mounting /dev/shm" >&2
mount -t tmpfs -o size=1M tmpfs /dev/shm || exit 99
python3 "$S/dataloader_shm.py"
rc=$?
umount /dev/shm
exit $rc
