#!/usr/bin/env python3
"""Every mode reads a log the same way (issue 20).

  equivalence  every single-file fixture gives the same diagnoses (cause,
               variant, role, evidence line numbers, numeric fields) read
               as a file, from standard input, through --tee and under
               `oomdiag run -- cat FILE`.  What only the parent of `run`
               sees (its facts pseudo-input, exit status, peak RSS) and the
               input names are left aside.
  fail-on      an unknown --fail-on cause is trouble (exit 2) in every
               mode, and `run` then does not start the job; a known one
               narrows the exit status the same in every mode.
  options      the output options (--format, --quiet, --max-evidence,
               --lang, --trace) give the same report in every mode.

  modes.py --oomdiag BIN --fixtures DIR [equivalence|fail-on|options]...
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

MODES = ("file", "stdin", "tee", "run")


def run_mode(oomdiag, mode, path, opts, scratch, facts_path=None):
    """Runs oomdiag on PATH in MODE with OPTS; returns (status, report text,
    stderr).  Under run, FACTS_PATH receives the parent's facts."""
    if mode == "file":
        p = subprocess.run([oomdiag, *opts, path], capture_output=True)
        return p.returncode, p.stdout, p.stderr
    if mode == "stdin":
        with open(path, "rb") as f:
            p = subprocess.run([oomdiag, *opts], stdin=f, capture_output=True)
        return p.returncode, p.stdout, p.stderr
    if mode == "tee":
        with open(path, "rb") as f:
            p = subprocess.run([oomdiag, "--tee", *opts], stdin=f, capture_output=True)
        if p.returncode != 2 and p.stdout != open(path, "rb").read():
            raise AssertionError(f"--tee did not copy {path} unchanged")
        return p.returncode, p.stderr, p.stderr
    fd, report = tempfile.mkstemp(dir=scratch, suffix=".report")
    os.close(fd)
    try:
        facts = ["--facts=" + facts_path] if facts_path else []
        p = subprocess.run([oomdiag, "run", "--always", f"--report={report}", *facts, *opts, "--", "cat", path],
                           stdin=subprocess.DEVNULL, capture_output=True)
        with open(report, "rb") as f:
            return p.returncode, f.read(), p.stderr
    finally:
        os.unlink(report)


def numeric(fields):
    return sorted((k, v) for k, v in (fields or {}).items() if isinstance(v, (int, float)) and not isinstance(v, bool))


def digest(doc):
    """What must agree between modes: per diagnosis its cause, variant,
    role, evidence lines and numeric fields (not the input names)."""
    out = []
    for job in doc.get("jobs", []):
        for d in job.get("diagnoses", []):
            ev = d.get("evidence", [])
            out.append((d.get("cause"), d.get("variant"), d.get("role"), d.get("last_step"),
                        tuple((e.get("line"), e.get("rule"), tuple(numeric(e.get("fields")))) for e in ev)))
    return out


def parse_json(text):
    text = text.decode("utf-8", "replace")
    start = text.find("{")
    if start < 0:
        return {}
    return json.JSONDecoder().raw_decode(text[start:])[0]


def check_equivalence(oomdiag, fixtures, scratch):
    logs = sorted(f for f in os.listdir(fixtures) if f.endswith(".log") and os.path.isfile(os.path.join(fixtures, f)))
    problems = []

    def one(name):
        path = os.path.join(fixtures, name)
        got = {}
        facts = os.path.join(scratch, name + ".facts")
        for mode in MODES:
            status, text, _ = run_mode(oomdiag, mode, path, ["--format=json"], scratch, facts)
            got[mode] = digest(parse_json(text))
        # What only run's parent sees (exit status, peak RSS, the host's
        # memory) is its facts: the same log read as a file beside them.
        p = subprocess.run([oomdiag, "--one-job", "--format=json", path, facts], capture_output=True)
        os.unlink(facts)
        want = {m: got["file"] for m in MODES}
        want["run"] = digest(parse_json(p.stdout))
        bad = [m for m in MODES[1:] if got[m] != want[m]]
        if bad:
            lines = [f"{name}: differs read {', '.join(bad)} from read as a file"]
            for m in bad:
                lines.append(f"  want  {want[m]}\n  {m:5} {got[m]}")
            return "\n".join(lines)
        return None

    workers = max(2, min(8, (os.cpu_count() or 2) * 2))
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        for res in pool.map(one, logs):
            if res:
                problems.append(res)
    print(f"modes.equivalence: {len(logs)} fixtures in {len(MODES)} modes, {len(problems)} differ")
    return problems


def pick_fixture(fixtures, manifest_cause):
    """A fixture whose expected root cause is MANIFEST_CAUSE."""
    with open(os.path.join(fixtures, "manifest.tsv"), encoding="utf-8") as f:
        for row in f:
            cols = row.rstrip("\n").split("\t")
            if len(cols) > 1 and cols[1] == manifest_cause and os.path.isfile(os.path.join(fixtures, cols[0])):
                return os.path.join(fixtures, cols[0])
    raise SystemExit(f"modes.py: no fixture with root cause {manifest_cause}")


def check_fail_on(oomdiag, fixtures, scratch):
    problems = []
    log = pick_fixture(fixtures, "gpu-oom")
    marker = os.path.join(scratch, "started")
    for mode in MODES:
        status, _, err = run_mode(oomdiag, mode, log, ["--fail-on=nosuchcause"], scratch)
        if status != 2 or b"nosuchcause" not in err:
            problems.append(f"--fail-on nosuchcause in mode {mode}: exit {status}, stderr {err[:200]!r}")
    # run must not start the job at all.
    p = subprocess.run([oomdiag, "run", "--fail-on=nosuchcause", "--", "touch", marker], capture_output=True)
    if p.returncode != 2 or os.path.exists(marker):
        problems.append(f"run --fail-on nosuchcause: exit {p.returncode}, job started: {os.path.exists(marker)}")
    # The same narrowing everywhere: the log's own cause counts, another does not.
    for fail_on, want in (("gpu-oom", 0), ("host-oom-kill", 1)):
        for mode in ("file", "stdin", "tee"):
            status, _, _ = run_mode(oomdiag, mode, log, ["-q", f"--fail-on={fail_on}"], scratch)
            if status != want:
                problems.append(f"--fail-on {fail_on} -q in mode {mode}: exit {status}, want {want}")
    print(f"modes.fail-on: {len(problems)} problems")
    return problems


MARKERS = (b"----- oomdiag report begin -----\n", b"----- oomdiag report end -----\n")


def normalise(text, path):
    """A report with the input's name and the parent's own part left out,
    and without the marker lines a report beside a job's output (--tee,
    run: text, Markdown, GitHub) starts and ends with."""
    for marker in MARKERS:
        text = text.replace(marker, b"")
    return text.replace(path.encode(), b"INPUT").replace(b'"(output)"', b'"INPUT"').replace(b'"-"', b'"INPUT"')


def check_options(oomdiag, fixtures, scratch):
    """Output options give the same report through --tee and from standard
    input (both diagnose one stream; run adds its facts, so its reports are
    compared by digest only)."""
    problems = []
    log = pick_fixture(fixtures, "gpu-oom")
    for opts in (["--format=json"], ["--format=ndjson"], ["--format=markdown"], ["--format=junit"],
                 ["--format=text", "--color=never"], ["--format=text", "--max-evidence=1", "--color=never"],
                 ["--lang=zh-Hans", "--format=json"], ["--trace", "--color=never"]):
        _, stdin_out, _ = run_mode(oomdiag, "stdin", log, opts, scratch)
        _, tee_out, _ = run_mode(oomdiag, "tee", log, opts, scratch)
        if normalise(stdin_out, log) != normalise(tee_out, log):
            problems.append(f"{' '.join(opts)}: --tee's report differs from standard input's")
        if "--format=json" in opts:
            got = {m: digest(parse_json(run_mode(oomdiag, m, log, opts, scratch)[1])) for m in MODES}
            if any(got[m] != got["file"] for m in MODES):
                problems.append(f"{' '.join(opts)}: diagnoses differ between modes: {got}")
    # -q prints nothing, and says by the exit status (run: the job's) alone;
    # run's --report FILE is still written, as asked.
    for mode in MODES:
        status, text, err = run_mode(oomdiag, mode, log, ["-q"], scratch)
        printed = err if mode in ("run", "tee") else text + err
        if printed.strip() or status != 0:
            problems.append(f"-q in mode {mode}: exit {status}, printed {printed[:100]!r}")
    print(f"modes.options: {len(problems)} problems")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--oomdiag", required=True)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("checks", nargs="*", default=["equivalence", "fail-on", "options"])
    a = ap.parse_args()
    checks = {"equivalence": check_equivalence, "fail-on": check_fail_on, "options": check_options}
    problems = []
    with tempfile.TemporaryDirectory(prefix="oomdiag-modes-") as scratch:
        for c in a.checks:
            problems += checks[c](os.path.abspath(a.oomdiag), a.fixtures, scratch)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
