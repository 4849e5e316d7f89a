#!/usr/bin/env python3
"""The text report at a terminal: under a pty (util-linux `script`) of 80
columns, no line is wider than 80 display columns (a wide character counts
two), the first screen (24 lines) holds the headline, the start of the
summary and the start of the first fix, and the fixes shown are whole.  In a pipe the full report stays as
it was (the transcripts check that).

  terminal_check.py --oomdiag build/oomdiag --fixtures fixtures
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unicodedata

CASES = [
    ("pytorch-oom-reserved-detectron2-frag.log", "en"),
    ("host-oom-kill-dmesg.log", "en"),
    ("torchrun-nccl-timeout-combined.log", "en"),
    ("host-oom-kill-dmesg.log", "zh-Hans"),
]


def columns(line):
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 0 if unicodedata.combining(c) else 1
               for c in line)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oomdiag", required=True)
    ap.add_argument("--fixtures", required=True)
    args = ap.parse_args()
    if shutil.which("script") is None:
        print("SKIPPED: no script(1) to give oomdiag a terminal")
        sys.exit(77)
    problems = []
    # Each case from where the fixtures are and again from a deep directory,
    # so that a long location on the evidence line is always tried (a CI
    # checkout's path must not decide whether the report fits).
    deep = tempfile.mkdtemp(prefix="oomdiag-terminal-")
    deep_dir = os.path.join(deep, *(["a-rather-long-directory-name"] * 4))
    os.makedirs(deep_dir)
    for name, _ in CASES:
        shutil.copy(os.path.join(args.fixtures, name), deep_dir)
    runs = [(os.path.join(where, name), name, lang) for where in (args.fixtures, deep_dir) for name, lang in CASES]
    for path, name, lang in runs:
        cmd = f"COLUMNS=80 NO_COLOR=1 {args.oomdiag} --lang={lang} {path}"
        p = subprocess.run(["script", "-qec", cmd, "/dev/null"], capture_output=True, timeout=60,
                           stdin=subprocess.DEVNULL)
        screen = p.stdout.decode("utf-8", "replace").replace("\r", "").split("\n")
        doc = json.loads(subprocess.run([args.oomdiag, "--format", "json", f"--lang={lang}", path],
                                        capture_output=True).stdout)
        d = doc["jobs"][0]["diagnoses"][0]
        first = "\n".join(screen[:24])
        flat = " ".join(l.strip() for l in screen[:24])
        for n, line in enumerate(screen, 1):
            if columns(line) > 80:
                problems.append(f"{name} ({lang}): line {n} is {columns(line)} columns: {line!r}")
        wants = [("headline", d["title"][:20]), ("summary", d["summary"][:20]),
                 ("first fix", d["remediation"][0]["action"][:20])]
        for what, text in wants:
            if text not in flat and text not in first:
                problems.append(f"{name} ({lang}): the first screen lacks the {what} ({text!r})")
        # The fixes shown are whole, wrapped, never cut: a command cut in the
        # middle cannot be run (compared without whitespace: a wrap adds some).
        squeezed = "".join("".join(screen).split())
        for step in d["remediation"][:3]:
            if "".join(step["action"].split()) not in squeezed:
                problems.append(f"{name} ({lang}): fix {step['rank']} is not shown whole: {step['action']!r}")
        if len(screen) > 40:
            problems.append(f"{name} ({lang}): {len(screen)} lines, not concise")
    shutil.rmtree(deep)
    # After `run` (and --tee) the input is gone: the report is printed whole,
    # not the concise form whose hint (--verbose) could not be followed.
    fixture = os.path.join(args.fixtures, CASES[0][0])
    cmd = f"COLUMNS=80 NO_COLOR=1 {args.oomdiag} run -- sh -c 'cat {fixture}; exit 1' > /dev/null"
    p = subprocess.run(["script", "-qec", cmd, "/dev/null"], capture_output=True, timeout=60,
                       stdin=subprocess.DEVNULL)
    out = p.stdout.decode("utf-8", "replace")
    if "--verbose" in out or "ROOT CAUSE" not in out or " 4. " not in out:
        problems.append(f"run at a terminal: not the whole report: {out[-600:]!r}")
    runs.append("run")
    # A bare `oomdiag` at a terminal says it reads standard input and shows
    # no progress line counting its own reads.
    p = subprocess.run(["script", "-qec", f"NO_COLOR=1 timeout 5 {args.oomdiag} --progress", "/dev/null"],
                       capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    out = p.stdout.decode("utf-8", "replace")
    if "reading standard input" not in out or " read, " in out:
        problems.append(f"bare oomdiag at a terminal: {out[-400:]!r}")
    runs.append("bare")
    for p in problems:
        print("FAIL", p)
    print(f"terminal: {len(runs)} reports at 80 columns, {len(problems)} problem(s)")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
