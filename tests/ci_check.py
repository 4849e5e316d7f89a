#!/usr/bin/env python3
"""The CI formats, read as their consumers read them.

--format github: every stdout line is parsed as the Actions runner parses
workflow commands (`::cmd k=v,...::data` after leading spaces are trimmed,
and the legacy `##[cmd]data` anywhere in a line).  Only ::error, ::warning
and ::notice may appear, with file/line/title properties; log text must
not begin a line, and no message may hold "##[" (the runner finds that
anywhere); "::" inside a message is left as it is, since the runner
reads "::" commands only at the start of a line;
at most 10 errors and 10 warnings.
--format junit: well-formed XML whose totals match its testcases.
--format markdown: every code fence is closed by a fence of its length.

Inputs: the CLI test logs with the test rules (including the injection
log), and fixtures/ with the built-in rules.

  ci_check.py --oomdiag build/oomdiag --root .
"""
import argparse
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

COMMANDS = {"error", "warning", "notice"}
PROPERTIES = {"file", "line", "title"}


def unescape_data(s):
    return s.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")


def unescape_property(s):
    return (s.replace("%0D", "\r").replace("%0A", "\n").replace("%3A", ":")
            .replace("%2C", ",").replace("%25", "%"))


def check_github(text, what):
    problems = []
    counts = {"error": 0, "warning": 0, "notice": 0}
    for n, line in enumerate(text.split("\n")[:-1], 1):
        where = f"{what}: line {n}"
        if "##[" in line:
            problems.append(f"{where}: the runner would read a legacy ##[ command: {line[:120]!r}")
        if "\r" in line:
            problems.append(f"{where}: a carriage return splits the line for the runner")
        stripped = line.lstrip()
        if not stripped.startswith("::"):
            if not line.startswith("oomdiag: "):
                problems.append(f"{where}: a plain line that does not start with 'oomdiag: ': {line[:120]!r}")
            continue
        end = stripped.find("::", 2)
        if end < 0:
            problems.append(f"{where}: a command without '::' before its data")
            continue
        info, data = stripped[2:end], stripped[end + 2:]
        name, _, props = info.partition(" ")
        if name not in COMMANDS:
            problems.append(f"{where}: command {name!r}")
            continue
        counts[name] += 1
        for prop in filter(None, props.split(",")):
            key, eq, value = prop.partition("=")
            if not eq or key not in PROPERTIES:
                problems.append(f"{where}: property {prop!r}")
            if key == "line" and not value.isdigit():
                problems.append(f"{where}: line={value!r}")
            if "::" in unescape_property(value) or "##[" in unescape_property(value):
                problems.append(f"{where}: property {key} holds a command marker")
        message = unescape_data(data)
        if "##[" in message:
            problems.append(f"{where}: the message holds a command marker: {message[:120]!r}")
    if counts["error"] > 10 or counts["warning"] > 10:
        problems.append(f"{what}: {counts['error']} errors and {counts['warning']} warnings (at most 10 each)")
    return problems


def check_junit(text, what):
    try:
        root = ET.fromstring(text.encode("utf-8"))
    except ET.ParseError as e:
        return [f"{what}: not well-formed XML: {e}"]
    problems = []
    if root.tag != "testsuites" or root.get("name") != "oomdiag":
        problems.append(f"{what}: root element {root.tag} name={root.get('name')}")
    cases = root.findall("./testsuite/testcase")
    failed = [c for c in cases if c.find("failure") is not None]
    for el in [root] + root.findall("testsuite"):
        if el.get("tests") != str(len(cases)) or el.get("failures") != str(len(failed)):
            problems.append(f"{what}: <{el.tag}> says tests={el.get('tests')} failures={el.get('failures')}, "
                            f"has {len(cases)} testcases, {len(failed)} failing")
    for c in cases:
        if c.get("classname") != "oomdiag" or not c.get("name"):
            problems.append(f"{what}: testcase {c.attrib}")
        for f in c.findall("failure"):
            if not f.get("type") or not f.get("message", "").startswith(f.get("type") + ": "):
                problems.append(f"{what}: failure message={f.get('message')!r} type={f.get('type')!r}")
    return problems


def check_markdown(text, what):
    problems = []
    fence = None
    for n, line in enumerate(text.split("\n"), 1):
        m = re.match(r"^(`{3,})(.*)$", line)
        if fence is None:
            if m:
                fence = m.group(1)
        elif m and m.group(1) == fence and m.group(2) == "":
            fence = None
        elif m and len(m.group(1)) >= len(fence) and m.group(2).strip() == "":
            problems.append(f"{what}: line {n} closes a fence early")
    if fence is not None:
        problems.append(f"{what}: a code fence is never closed")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oomdiag", required=True)
    ap.add_argument("--root", required=True)
    args = ap.parse_args()
    oomdiag = os.path.abspath(args.oomdiag)
    root = args.root
    env = dict(os.environ, NO_COLOR="1", LC_ALL="C")
    env.pop("GITHUB_STEP_SUMMARY", None)

    runs = []
    test_rules = ["--no-builtin-rules", "-r", "tests/data/rules", "-r", "tests/cli/data/inject-rules.json"]
    data = os.path.join(root, "tests", "cli", "data")
    for name in sorted(os.listdir(data)):
        if name.endswith((".log", ".log.gz")) or name == "ranks":
            runs.append(test_rules + [f"tests/cli/data/{name}"])
    fixtures = os.path.join(root, "fixtures")
    if os.path.isdir(fixtures):
        names = sorted(n for n in os.listdir(fixtures)
                       if n.endswith((".log", ".log.gz")) or os.path.isdir(os.path.join(fixtures, n)))
        runs.append([f"fixtures/{n}" for n in names])

    problems = []
    checked = 0
    for fmt, check in (("github", check_github), ("junit", check_junit), ("markdown", check_markdown)):
        for r in runs:
            what = f"--format {fmt} " + (" ".join(r) if len(r) < 8 else f"{len(r)} fixtures")
            p = subprocess.run([oomdiag, "--format", fmt] + r, cwd=root, env=env, capture_output=True, timeout=300)
            checked += 1
            if p.returncode not in (0, 1, 2) or (p.returncode == 2 and not p.stdout):
                problems.append(f"{what}: exit {p.returncode}: {p.stderr.decode(errors='replace')[:300]}")
                continue
            try:
                text = p.stdout.decode("utf-8")
            except UnicodeDecodeError as e:
                problems.append(f"{what}: output is not UTF-8: {e}")
                continue
            problems += check(text, what)
    for line in problems:
        print("FAIL", line)
    print(f"ci formats: {checked} outputs read, {len(problems)} problem{'s' if len(problems) != 1 else ''}")
    sys.exit(1 if problems or checked == 0 else 0)


if __name__ == "__main__":
    main()
