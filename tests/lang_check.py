#!/usr/bin/env python3
"""Every fixture's text report in Simplified Chinese holds no English
sentence outside what stays English on purpose: quoted log text (the
evidence lines), commands, option names, environment variables, ids and
numbers.  A run of four or more English words outside backquotes is taken
for a sentence left untranslated.

  lang_check.py --oomdiag build/oomdiag --fixtures fixtures
"""
import argparse
import os
import re
import subprocess
import sys

EVIDENCE = re.compile(r"^\s+\S+:\d+: ")         # "    path:line: text"
# Backquoted commands, and log text quoted "..." or “...”.
BACKQUOTED = re.compile(r"`[^`]*`|\"[^\"]*\"|“[^”]*”")
# Tokens that are code, not prose: paths, options, calls, KEY=value, dotted names.
CODE = re.compile(r"\S*[=/()\[\]._:<>{}|*$\"'-]\S*|\b[A-Z0-9_]{2,}\b")
SENTENCE = re.compile(r"\b[A-Za-z]{2,}(?:[ ,]+[A-Za-z]{2,}){3,}\b")


def english_runs(text):
    found = []
    for line in text.splitlines():
        if EVIDENCE.match(line):
            continue
        prose = CODE.sub(" ", BACKQUOTED.sub(" ", line))
        for m in SENTENCE.finditer(prose):
            found.append((line.strip(), m.group(0)))
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oomdiag", required=True)
    ap.add_argument("--fixtures", required=True)
    args = ap.parse_args()
    names = sorted(n for n in os.listdir(args.fixtures)
                   if n.endswith(".log") or n.endswith(".log.gz") or os.path.isdir(os.path.join(args.fixtures, n)))
    env = dict(os.environ, LANG="zh_CN.UTF-8")
    env.pop("LC_ALL", None)
    env.pop("LC_MESSAGES", None)
    env.pop("LANGUAGE", None)
    bad = 0
    diagnosed = 0
    for name in names:
        p = subprocess.run([args.oomdiag, "--color=never", "--max-evidence=1", name], cwd=args.fixtures, env=env,
                           capture_output=True, timeout=60)
        out = p.stdout.decode("utf-8")
        if p.returncode == 0:
            diagnosed += 1
        for line, run in english_runs(out):
            print(f"FAIL {name}: English left in: {run!r}\n    {line}")
            bad += 1
    if diagnosed == 0:
        print("FAIL: no fixture was diagnosed: the check checked nothing")
        sys.exit(1)
    print(f"lang: {len(names)} fixtures in zh-Hans ({diagnosed} diagnosed), {bad} English sentences")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
