#!/usr/bin/env python3
"""Regex safety over the shipped rules: every literal of every signature,
placed in long runs of spaces, tabs, digits, letters and brackets (the
inputs that make an unanchored pattern with adjacent quantifiers slow down
with the square of the line length).  The scan must finish within a limit
that is about 30 times what it needs (1 s of CPU on 2026 hardware for
the default 60,000-byte runs; a quadratic pattern needs 90 s): this detects
a pattern that hangs the scan, it does not measure speed (bench/ does).

  adversarial.py --oomdiag build/oomdiag --rules rules [--run 60000] [--limit 30]
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import threading


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oomdiag", required=True)
    ap.add_argument("--rules", required=True)
    ap.add_argument("--run", type=int, default=60000)
    ap.add_argument("--limit", type=float, default=30)
    args = ap.parse_args()
    literals = set()
    for path in glob.glob(os.path.join(args.rules, "*.json")):
        for s in json.load(open(path)).get("signatures", []):
            lit = s.get("literal")
            for x in (lit if isinstance(lit, list) else [lit]):
                if x:
                    literals.add(x)
    proc = subprocess.Popen([args.oomdiag, "--format", "json", "-"], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    timer = threading.Timer(args.limit, proc.kill)
    timer.start()
    try:
        for lit in sorted(literals):
            for filler in (" ", "\t", "1", "a"):
                run = (filler * args.run).encode()
                proc.stdin.write(lit.encode() + run + b"x\n" + run + lit.encode() + run + b"\n")
        proc.stdin.close()
    except BrokenPipeError:
        pass
    err = proc.stderr.read()
    proc.wait()
    timer.cancel()
    if proc.returncode < 0:
        print(f"FAIL: the scan of {len(literals)} literals in long runs took over {args.limit} s: a pattern "
              "backtracks; find it with the same input and --trace, and use possessive quantifiers or anchors")
        sys.exit(1)
    p = proc
    p.stderr = err
    if p.returncode not in (0, 1):
        print(err.decode(errors="replace"))
        sys.exit(1)
    print(f"adversarial: {len(literals)} literals in long runs scanned in time")


if __name__ == "__main__":
    main()
