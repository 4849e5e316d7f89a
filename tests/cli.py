#!/usr/bin/env python3
"""CLI transcripts: each tests/cli/NAME.cmd is one shell command line, run
from the repository root with $OOMDIAG set to the binary and colour off;
NAME.out, NAME.err and NAME.status hold the exact stdout, stderr and exit
status expected.  --update writes them from the current binary.

  cli.py --oomdiag build/oomdiag --cases tests/cli --root . [--update] [NAME...]
"""
import argparse
import os
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oomdiag", required=True)
    ap.add_argument("--cases", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--update", action="store_true")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    env = dict(os.environ, OOMDIAG=os.path.abspath(args.oomdiag), NO_COLOR="1", LC_ALL="C")
    env.pop("GITHUB_STEP_SUMMARY", None)
    env.pop("GITHUB_ACTIONS", None)
    failures = 0
    cases = sorted(n[:-4] for n in os.listdir(args.cases) if n.endswith(".cmd"))
    for name in cases:
        if args.names and name not in args.names:
            continue
        base = os.path.join(args.cases, name)
        with open(base + ".cmd") as f:
            cmd = f.read().strip()
        p = subprocess.run(["bash", "-c", cmd], cwd=args.root, env=env, capture_output=True, timeout=120)
        got = {"out": p.stdout, "err": p.stderr, "status": f"{p.returncode}\n".encode()}
        if args.update:
            for ext, data in got.items():
                with open(f"{base}.{ext}", "wb") as f:
                    f.write(data)
            continue
        bad = []
        for ext, data in got.items():
            try:
                with open(f"{base}.{ext}", "rb") as f:
                    want = f.read()
            except FileNotFoundError:
                want = None
            if want != data:
                bad.append((ext, want, data))
        if bad:
            failures += 1
            print(f"FAIL {name}: {cmd}")
            for ext, want, data in bad:
                print(f"  {ext}: expected {want!r:.600}")
                print(f"  {ext}:      got {data!r:.600}")
    print(f"cli: {len(cases) - failures}/{len(cases)} transcripts match")
    sys.exit(1 if failures or not cases else 0)


if __name__ == "__main__":
    main()
