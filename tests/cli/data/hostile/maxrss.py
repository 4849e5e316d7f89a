#!/usr/bin/env python3
"""maxrss.py LIMIT_MIB COMMAND...: runs COMMAND (stdin, stdout and stderr
passed through), then prints "rss-ok" to stderr if its peak resident set
stayed under LIMIT_MIB, else "rss-too-high: N MiB"; exits with COMMAND's
status.  A binary built with AddressSanitizer (.ci/sanitize) gets 192 MiB
more for its shadow memory and allocator quarantine."""
import resource
import shutil
import subprocess
import sys

limit = int(sys.argv[1])
exe = shutil.which(sys.argv[2]) or sys.argv[2]
with open(exe, "rb") as f:
    if b"__asan_init" in f.read():
        limit += 192
rc = subprocess.call(sys.argv[2:])
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024  # KiB -> MiB
sys.stderr.write("rss-ok\n" if peak < limit else f"rss-too-high: {peak} MiB (limit {limit})\n")
sys.exit(rc)
