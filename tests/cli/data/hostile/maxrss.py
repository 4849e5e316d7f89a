#!/usr/bin/env python3
"""maxrss.py LIMIT_MIB COMMAND...: runs COMMAND (stdin, stdout and stderr
passed through), then prints "rss-ok" to stderr if its peak resident set
stayed under LIMIT_MIB, else "rss-too-high: N MiB"; exits with COMMAND's
status.  A binary built with AddressSanitizer (.ci/sanitize) gets 128 MiB
more for its shadow memory, and a small allocator quarantine (8 MiB, not
256) so that freed memory it holds back does not count as growth."""
import os
import resource
import shutil
import subprocess
import sys

limit = int(sys.argv[1])
exe = shutil.which(sys.argv[2]) or sys.argv[2]
env = dict(os.environ)
with open(exe, "rb") as f:
    if b"__asan_init" in f.read():
        limit += 128
        env["ASAN_OPTIONS"] = ":".join(filter(None, [env.get("ASAN_OPTIONS"), "quarantine_size_mb=8"]))
rc = subprocess.call(sys.argv[2:], env=env)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024  # KiB -> MiB
if os.environ.get("MAXRSS_VERBOSE"):
    sys.stderr.write(f"peak {peak} MiB, limit {limit} MiB\n")
sys.stderr.write("rss-ok\n" if peak < limit else f"rss-too-high: {peak} MiB (limit {limit})\n")
sys.exit(rc)
