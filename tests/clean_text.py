#!/usr/bin/env python3
"""Clean real text stays clean: runs oomdiag over a corpus of real text that
holds no failing job (by default the Debian changelogs of the machine,
/usr/share/doc/*/changelog*.gz: release notes that mention crashes, quote
shell sessions and name errors in prose) and counts the files that get a
diagnosis.  Fails when more than --max-fraction of them do (default 1 in
100), and when a `none` fixture of the manifest gets one.  Every diagnosed
file is listed with its lead evidence, for a person to judge.  Exits 77
(skipped) when the corpus is absent, as on images that drop /usr/share/doc.

  clean_text.py --oomdiag build/oomdiag [--fixtures fixtures] [--glob PATTERN]
"""
import argparse
import collections
import glob
import json
import os
import subprocess
import sys

SKIP = 77


def diagnose(oomdiag, paths):
    """Yields (path, diagnoses) per input file, one job per file."""
    for i in range(0, len(paths), 400):
        chunk = paths[i:i + 400]
        p = subprocess.run([oomdiag, "-f", "ndjson", "--"] + chunk, capture_output=True)
        if p.returncode not in (0, 1):
            sys.exit("oomdiag failed (%d): %s" % (p.returncode, p.stderr.decode(errors="replace")[:400]))
        for line in p.stdout.splitlines():
            job = json.loads(line)
            yield job["inputs"][0]["path"], job["diagnoses"]


def none_fixtures(fixtures):
    """The manifest's fixtures whose expected root cause is `none`, as paths
    (NAME, NAME.log, NAME.log.gz or a directory NAME/, as golden.py finds them)."""
    found = []
    with open(os.path.join(fixtures, "manifest.tsv"), encoding="utf-8") as f:
        for row in f.read().splitlines()[1:]:
            cols = row.split("\t")
            if len(cols) < 2 or cols[1] != "none":
                continue
            for cand in (cols[0], cols[0] + ".log", cols[0] + ".log.gz"):
                if os.path.exists(os.path.join(fixtures, cand)):
                    found.append(os.path.join(fixtures, cand))
                    break
            else:
                sys.exit("clean_text: manifest names %s, but there is no such fixture" % cols[0])
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oomdiag", required=True)
    ap.add_argument("--glob", default="/usr/share/doc/*/changelog*.gz")
    ap.add_argument("--fixtures")
    ap.add_argument("--max-fraction", type=float, default=0.01)
    args = ap.parse_args()

    paths = sorted(p for p in glob.glob(args.glob) if os.path.isfile(p))
    if not paths:
        print("clean_text: SKIP: no file matches %s (the corpus is not installed here)" % args.glob)
        sys.exit(SKIP)
    bad = []
    by_rule = collections.Counter()
    for path, diagnoses in diagnose(args.oomdiag, paths):
        if not diagnoses:
            continue
        lead = diagnoses[0]
        ev = lead["evidence"][0] if lead["evidence"] else {"rule": "-", "line": 0, "text": ""}
        by_rule[(lead["cause"], ev["rule"])] += 1
        bad.append("  %s:%s: %s via %s: %s" % (path, ev["line"], lead["cause"], ev["rule"], ev["text"][:120]))
    failures = 0
    limit = int(args.max_fraction * len(paths))
    print("clean_text: %d of %d files diagnosed (at most %d allowed, %.2f%%)"
          % (len(bad), len(paths), limit, 100.0 * len(bad) / len(paths)))
    for (cause, rule), n in by_rule.most_common():
        print("  %4d %s %s" % (n, cause, rule))
    for line in bad:
        print(line)
    if len(bad) > limit:
        failures += 1
    if args.fixtures:
        logs = none_fixtures(args.fixtures)
        diagnosed = [log for log in logs if any(d for _, d in diagnose(args.oomdiag, [log]))]
        print("clean_text: %d of %d `none` fixtures diagnosed" % (len(diagnosed), len(logs)))
        for p in diagnosed:
            print("  " + p)
        failures += bool(diagnosed)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
