#!/usr/bin/env python3
"""Score oomdiag once on the second frozen holdout, tests/holdout2 (see
README.md here): the first holdout's scorer (tests/holdout/score.py), run
on this folder.  Same options; --holdout defaults to this folder.

    python3 tests/holdout2/score.py --oomdiag build/oomdiag
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCORER = os.path.join(os.path.dirname(HERE), "holdout", "score.py")

if __name__ == "__main__":
    args = sys.argv[1:]
    if not any(a == "--holdout" or a.startswith("--holdout=") for a in args):
        args += ["--holdout", HERE]
    os.execv(sys.executable, [sys.executable, SCORER] + args)
