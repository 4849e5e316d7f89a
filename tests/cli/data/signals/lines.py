#!/usr/bin/env python3
"""Runs oomdiag on every line of the captured shell logs by itself and
prints, per line, the cause, role and signature that diagnosed it (or `-`),
so a transcript shows which of the real messages are recognised.  The
typed commands and prompts of the captures are left out.

  lines.py OOMDIAG LOG...
"""
import json
import os
import subprocess
import sys


def skip(line):
    return (not line.strip() or line.startswith(("$ ", "#", "vm# ", "bash-5.2# ")) or line == "$")


def main():
    oomdiag, logs = sys.argv[1], sys.argv[2:]
    out = sys.stdout.buffer
    for path in logs:
        name = os.path.basename(path)
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        for n, line in enumerate(lines, 1):
            if skip(line):
                continue
            p = subprocess.run([oomdiag, "-f", "json", "-"], input=line.encode(), capture_output=True)
            found = "-"
            if p.returncode == 0:
                d = json.loads(p.stdout)["jobs"][0]["diagnoses"][0]
                e = d["evidence"][0]
                keys = ("signal_name", "pid", "core_dumped", "errno")
                fields = ",".join("%s=%s" % (k, e["fields"][k]) for k in keys if k in e["fields"])
                found = "%s %s %s %s" % (d["cause"], d["role"], e["rule"], fields)
            elif p.returncode != 1:
                found = "error %d" % p.returncode
            out.write(("%s:%d: %s | %s\n" % (name, n, found, line)).encode())


if __name__ == "__main__":
    main()
