#!/usr/bin/env python3
"""Shapes, measured: every single-file fixture through the shapes real logs take.

Each fixture in fixtures/manifest.tsv that is one file (directories are
per-rank jobs and are left out) is rewritten by each transformation below:
a prefix on every line (timestamps, journald, syslog, glog, rank labels,
docker-compose, kubectl --prefix, log-viewer line numbers, a Markdown
quote), ANSI colours around every line, CRLF line ends, a wrap at 100
columns (as a terminal or `fold -w 100` does), and a progress bar glued
before the first evidence line of the root diagnosis (no line end between
the bar and the line).  A pair (fixture, transformation) is kept when the
transformed log has the fixture's root cause as in its golden JSON (no
diagnosis for "none", recovered for "recovered:CAUSE"), and, except under
the wrap, the same *_bytes fields in the root diagnosis.

The transformations are computed here; oomdiag runs once per
transformation over a temporary directory (--each --format ndjson), so the
whole costs a few seconds on a small machine.  Prints the share kept per
transformation and overall; fails below --min (99%) overall or below
--min-shape (97%) for any one transformation.

  shapes.py --oomdiag build/oomdiag --fixtures fixtures [-v] [--only T,...] [--keep DIR]
"""
import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile

MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()


def clock(i):
    """A time of day that moves on with the line number."""
    s = 3723 + i
    return s // 3600 % 24, s // 60 % 60, s % 60


def iso8601(i):
    h, m, s = clock(i)
    return f"2026-12-06T{h:02}:{m:02}:{s:02}Z "


def rfc3339(i):  # kubectl logs --timestamps, RFC 3339 with nanoseconds and an offset
    h, m, s = clock(i)
    return f"2026-12-06T{h:02}:{m:02}:{s:02}.{123456789 + i * 7919:09}+08:00 "


def python_logging(i):  # logging's default asctime: "2026-12-06 01:02:03,123"
    h, m, s = clock(i)
    return f"2026-12-06 {h:02}:{m:02}:{s:02},{(i * 37) % 1000:03} "


def journald(i):  # journalctl's short format
    h, m, s = clock(i)
    return f"Dec 06 {h:02}:{m:02}:{s:02} gpu-node-07 python[12345]: "


def syslog(i):  # RFC 3164 as /var/log/syslog writes it: the day padded with a space
    h, m, s = clock(i)
    return f"Dec  6 {h:02}:{m:02}:{s:02} gpu-node-07 python3[12345]: "


def glog(i):
    h, m, s = clock(i)
    return f"I1206 {h:02}:{m:02}:{s:02}.{(i * 7919) % 1000000:06} 12345 trainer.cc:{42 + i % 100}] "


def numbered(i):  # a log viewer's gutter
    return f"{i + 1:>5} "


def grep_n(i):  # grep -n, an editor's "line:" gutter
    return f"{i + 1}:"


PREFIXES = {
    "iso8601": iso8601,
    "rfc3339": rfc3339,
    "python-logging": python_logging,
    "journald": journald,
    "syslog": syslog,
    "glog": glog,
    "rank-bracket": lambda i: "[rank3]:",
    "rank-colon": lambda i: "rank3: ",
    "docker-compose": lambda i: "trainer-1  | ",
    "kubectl-prefix": lambda i: "[pod/trainer-0/trainer] ",
    "line-number": numbered,
    "line-number-colon": grep_n,
    "markdown-quote": lambda i: "> ",
}

BAR = ("\r  10%|\u2588         | 10/100 [00:02<00:18,  4.93it/s]"
       "\r  45%|\u2588\u2588\u2588\u2588\u258c     | 45/100 [00:12<00:14,  3.71it/s]").encode()
WRAP = 100


def split_lines(data):
    """Lines without their "\\n" (a last line without one is kept as it is)."""
    lines = data.split(b"\n")
    last_open = lines[-1] != b""
    if not last_open:
        lines.pop()
    return lines, last_open


def join_lines(lines, last_open, end=b"\n"):
    return end.join(lines) + (b"" if last_open else end)


def prefixed(fn):
    def t(data, golden):
        lines, last_open = split_lines(data)
        return join_lines([fn(i).encode() + ln for i, ln in enumerate(lines)], last_open)
    return t


def ansi(data, golden):
    lines, last_open = split_lines(data)
    out = []
    for i, ln in enumerate(lines):
        colour = b"\x1b[1;31m" if i % 2 else b"\x1b[32m"
        out.append(colour + ln + b"\x1b[0m" if ln.strip() else ln)
    return join_lines(out, last_open)


def crlf(data, golden):
    lines, last_open = split_lines(data)
    return join_lines([ln[:-1] if ln.endswith(b"\r") else ln for ln in lines], last_open, b"\r\n")


def wrap(data, golden):
    """A terminal's wrap: every line longer than WRAP characters is cut
    into pieces of WRAP characters (a "\\r" piece is a line of its own)."""
    lines, last_open = split_lines(data)
    out = []
    for ln in lines:
        pieces = []
        for piece in ln.split(b"\r"):
            s = piece.decode("utf-8", "surrogateescape")
            cut = [s[k:k + WRAP] for k in range(0, len(s), WRAP)] or [""]
            pieces.append("\n".join(cut).encode("utf-8", "surrogateescape"))
        out.append(b"\r".join(pieces))
    return join_lines(out, last_open)


def glued_bar(data, golden):
    """A progress bar drawn with "\\r" updates and no line end, the first
    evidence line of the root diagnosis written right after it."""
    root = golden["root"]
    if root is None or not root["evidence"]:
        return None
    first = min(e["line"] for e in root["evidence"])
    lines, last_open = split_lines(data)
    if first < 1 or first > len(lines):
        return None
    lines[first - 1] = BAR + lines[first - 1]
    return join_lines(lines, last_open)


TRANSFORMS = dict((name, prefixed(fn)) for name, fn in PREFIXES.items())
TRANSFORMS.update({"ansi": ansi, "crlf": crlf, "wrap-100": wrap, "glued-bar": glued_bar})
NO_NUMBERS = {"wrap-100"}  # a wrap may cut a number from its unit: only the cause counts


def root_of(diags):
    return next((d for d in diags if d["role"] == "root"), None)


def bytes_fields(diag):
    if diag is None:
        return {}
    return {k: v for k, v in diag.get("fields", {}).items() if k.endswith("_bytes")}


def load_fixtures(root):
    out = []
    with open(os.path.join(root, "manifest.tsv"), newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            base = row["name"]
            if base.endswith(".log"):
                base = base[: -len(".log")]
            name = base + ".log"
            path = os.path.join(root, name)
            if not os.path.isfile(path):
                continue  # a directory: one job of per-rank logs (or a .log.gz)
            with open(os.path.join(root, base + ".expected.json")) as g:
                doc = json.load(g)
            diags = doc["jobs"][0]["diagnoses"] if doc["jobs"] else []
            with open(path, "rb") as g:
                data = g.read()
            out.append({"name": name, "want": row["expected_root_cause"], "data": data,
                        "diags": diags, "root": root_of(diags)})
    return out


def verdict(fx, diags, numbers):
    """None when kept, else what went wrong."""
    want = fx["want"]
    if want == "none":
        return None if not diags else f"expected none, got {diags[0]['cause']} ({diags[0]['role']})"
    if want.startswith("recovered:"):
        cause = want.split(":", 1)[1]
        roots = [d["cause"] for d in diags if d["role"] == "root"]
        ok = not roots and any(d["role"] == "recovered" and d["cause"] == cause for d in diags)
        return None if ok else f"expected {cause} recovered, got {[(d['cause'], d['role']) for d in diags]}"
    root = root_of(diags)
    if root is None or root["cause"] != fx["root"]["cause"]:
        got = f"{root['cause']}" if root else "no root"
        return f"expected {fx['root']['cause']}, got {got}"
    if numbers:
        a, b = bytes_fields(fx["root"]), bytes_fields(root)
        if a != b:
            diff = {k: (a.get(k), b.get(k)) for k in set(a) | set(b) if a.get(k) != b.get(k)}
            return f"{want}: *_bytes fields differ (expected, got): {diff}"
    return None


def run_transform(oomdiag, tmp, tname, fn, fixtures):
    d = os.path.join(tmp, tname)
    os.mkdir(d)
    cases = {}
    for fx in fixtures:
        data = fn(fx["data"], fx)
        if data is None:
            continue
        with open(os.path.join(d, fx["name"]), "wb") as f:
            f.write(data)
        cases[fx["name"]] = fx
    p = subprocess.run([oomdiag, "--each", "--format", "ndjson", "--color=never", "--no-progress", tname],
                       cwd=tmp, capture_output=True, timeout=600)
    if p.returncode not in (0, 1):
        sys.exit(f"shapes: oomdiag exited {p.returncode} on {tname}: {p.stderr.decode('utf-8', 'replace')}")
    got = {}
    for line in p.stdout.decode("utf-8").splitlines():
        rec = json.loads(line)
        if "inputs" not in rec:
            continue
        got[os.path.basename(rec["inputs"][0]["path"])] = rec.get("diagnoses", [])
    misses = []
    for name, fx in cases.items():
        if name not in got:
            misses.append((name, "no record in the output"))
            continue
        why = verdict(fx, got[name], tname not in NO_NUMBERS)
        if why is not None:
            misses.append((name, why))
    return len(cases), misses


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--oomdiag", required=True)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--min", type=float, default=99.0, help="the least share kept overall, in percent (99)")
    ap.add_argument("--min-shape", type=float, default=97.0,
                    help="the least share kept by any one transformation, in percent (97)")
    ap.add_argument("--only", help="comma-separated transformations to run")
    ap.add_argument("--keep", help="write the transformed logs under this directory (kept)")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every miss")
    args = ap.parse_args()
    oomdiag = os.path.abspath(args.oomdiag)
    fixtures = load_fixtures(args.fixtures)
    names = list(TRANSFORMS)
    if args.only:
        names = [n for n in args.only.split(",") if n]
        for n in names:
            if n not in TRANSFORMS:
                sys.exit(f"shapes: no transformation {n!r}; there are: {', '.join(TRANSFORMS)}")
    tmp = args.keep or tempfile.mkdtemp(prefix="oomdiag-shapes-")
    if args.keep:
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
    total = kept = 0
    worst = 100.0
    try:
        for tname in names:
            n, misses = run_transform(oomdiag, tmp, tname, TRANSFORMS[tname], fixtures)
            total += n
            kept += n - len(misses)
            share = 100.0 * (n - len(misses)) / n if n else 100.0
            worst = min(worst, share)
            print(f"{tname:18} {n - len(misses):4}/{n:<4} {share:6.2f}%")
            for name, why in misses if args.verbose or len(misses) <= 10 else misses[:10]:
                print(f"    MISS {name}: {why}")
            if not args.verbose and len(misses) > 10:
                print(f"    ... {len(misses) - 10} more (-v lists them)")
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    share = 100.0 * kept / total if total else 0.0
    print(f"{'overall':18} {kept:4}/{total:<4} {share:6.2f}% ({len(fixtures)} fixtures, {len(names)} shapes;"
          f" at least {args.min:g}% needed, {args.min_shape:g}% of each shape)")
    sys.exit(0 if share >= args.min and worst >= args.min_shape and total > 0 else 1)


if __name__ == "__main__":
    main()
