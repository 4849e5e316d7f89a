#!/usr/bin/env python3
"""Regex safety over the shipped rules: every literal of every signature,
placed in long runs of spaces, tabs, digits, letters and brackets (the
inputs that make an unanchored pattern with adjacent quantifiers slow down
with the square of the line length).

The test measures growth, not time: the same input is scanned with runs of
N and of 4N bytes, and the CPU time of the second may be at most 8 times
that of the first (a linear scan needs 4 times, a quadratic pattern 16).
The CPU time of a child is what it spent itself, so a loaded machine does
not change the ratio; each size is scanned three times and the fastest
kept.  When the ratio is too high, every literal is timed alone at both
sizes and the worst ones are named.

  adversarial.py --oomdiag build/oomdiag --rules rules [--run 15000] [--max-ratio 8]
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

FILLERS = (" ", "\t", "1", "a", "(")


def literals_of(rules):
    out = set()
    for path in glob.glob(os.path.join(rules, "*.json")):
        for s in json.load(open(path, encoding="utf-8")).get("signatures", []):
            lit = s.get("literal")
            for x in lit if isinstance(lit, list) else [lit]:
                if x:
                    out.add(x)
    return sorted(out)


def make_input(literals, run_len):
    parts = []
    for lit in literals:
        b = lit.encode()
        for filler in FILLERS:
            run = (filler * run_len).encode()
            parts.append(b + run + b"x\n" + run + b + run + b"\n")
    return b"".join(parts)


def cpu_seconds(oomdiag, data, tries=3):
    """The least CPU time (user + system) of `tries` scans of data."""
    with tempfile.TemporaryFile() as f:
        f.write(data)
        best = None
        for _ in range(tries):
            f.seek(0)
            proc = subprocess.Popen([oomdiag, "--format", "json", "-"], stdin=f,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            err = proc.stderr.read()
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
            if proc.returncode not in (0, 1):
                sys.stdout.write(err.decode(errors="replace"))
                print(f"FAIL: oomdiag exited {proc.returncode}")
                sys.exit(1)
            t = usage.ru_utime + usage.ru_stime
            best = t if best is None else min(best, t)
        return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oomdiag", required=True)
    ap.add_argument("--rules", required=True)
    ap.add_argument("--run", type=int, default=15000)
    ap.add_argument("--max-ratio", type=float, default=8.0)
    args = ap.parse_args()
    lits = literals_of(args.rules)
    small = cpu_seconds(args.oomdiag, make_input(lits, args.run))
    large = cpu_seconds(args.oomdiag, make_input(lits, args.run * 4))
    # Below a few hundredths of a second a ratio is noise: floor the base.
    ratio = large / max(small, 0.02)
    print(f"adversarial: {len(lits)} literals, runs of {args.run} and {args.run * 4} bytes: "
          f"{small:.3f} s and {large:.3f} s of CPU, ratio {ratio:.1f} (limit {args.max_ratio})")
    if ratio <= args.max_ratio:
        return
    worst = []
    for lit in lits:
        a = cpu_seconds(args.oomdiag, make_input([lit], args.run), tries=1)
        b = cpu_seconds(args.oomdiag, make_input([lit], args.run * 4), tries=1)
        worst.append((b / max(a, 0.005), b, lit))
    worst.sort(reverse=True)
    print("FAIL: scan time grows faster than the input: a pattern backtracks; use possessive "
          "quantifiers, \\b or anchors.  Worst literals (ratio, CPU s at 4N):")
    for r, b, lit in worst[:5]:
        print(f"  {r:6.1f} {b:7.3f}  {lit!r}")
    sys.exit(1)


if __name__ == "__main__":
    main()
