#!/usr/bin/env python3
"""Faults in the way of `oomdiag run`'s job parent (issue 22, item 4): a
grandchild that holds the output open, a job that closes its stdout, full
disks (/dev/full) for --log, --report and stdout, a storm of signals, a job
that ignores SIGINT and SIGTERM, too little virtual memory for oomdiag, and
a directory of 10,000 files under a limit of 64 open files.  Timeouts here
are hang guards, never assertions of speed.

  run_faults.py --oomdiag build/oomdiag --root . [CASE...]

Each case prints PASS, FAIL or SKIP (ulimit -v under AddressSanitizer);
the exit status is 1 if any failed.
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

import run_check  # the same context as the run/--tee/--follow checks

CASES = []


def case(fn):
    CASES.append(fn)
    return fn


class Ctx(run_check.Ctx):
    """run_check's context (binary, root, scratch folder, environment), but
    each run in a session of its own."""

    def run(self, args, timeout=60, **kw):
        """oomdiag ARGS in a session of its own; what is left of it (a
        grandchild) is killed afterwards."""
        proc = subprocess.Popen([self.oomdiag] + args, cwd=self.root, env=self.env, start_new_session=True,
                                stdout=kw.pop("stdout", subprocess.PIPE), stderr=subprocess.PIPE, **kw)
        try:
            out, err = proc.communicate(timeout=timeout)
        finally:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()
        return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


class Skip(Exception):
    pass


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def roots(report):
    return [d["cause"] for job in report["jobs"] for d in job["diagnoses"] if d["role"] == "root"]


@case
def grandchild_holds_output_open(c):
    """`sh -c 'sleep 30 & exit 3'`: the sleep keeps the job's pipes open
    after the job exits; run ends after draining (at most DRAIN_MAX_MS) and
    reports status 3."""
    rep = c.path("grandchild.json")
    p = c.run(["run", "--format", "json", "--report", rep, "--", "sh", "-c", "echo started; sleep 30 & exit 3"],
              timeout=25)
    check(p.returncode == 3, f"exit status {p.returncode}, want 3")
    check(p.stdout == b"started\n", f"stdout {p.stdout!r}")
    doc = json.load(open(rep))
    inputs = [i["path"] for i in doc["jobs"][0]["inputs"]]
    check(inputs == ["(output)", "(oomdiag run)"], f"inputs {inputs}")


@case
def grandchild_keeps_writing(c):
    """A grandchild that goes on writing every 100 ms after the job exits (a
    server left behind): the pipes are never quiet for a second, yet run
    ends (after DRAIN_MAX_MS) with the job's status.  Before the fix it
    waited for as long as the grandchild wrote."""
    code = "(while :; do echo tick; sleep 0.1; done) & echo started; exit 4"
    p = c.run(["run", "-q", "--", "sh", "-c", code], timeout=40)
    check(p.returncode == 4, f"exit status {p.returncode}, want 4 (stderr {p.stderr[-300:]!r})")
    check(p.stdout.startswith(b"started\n") or p.stdout.startswith(b"tick\n"), f"stdout {p.stdout[:80]!r}")


@case
def slow_reader_loses_nothing(c):
    """The job writes 1 MB and exits at once while oomdiag's stdout is read
    slowly (a pager, a slow pipe): what waited in the job's pipes when it
    exited is all passed on, however long that takes (the drain limit
    counts only after it).  With a plain 3 s limit the tail was lost."""
    code = "import sys\nsys.stdout.write(''.join('line %06d of the job\\n' % i for i in range(50000)))\nsys.exit(8)\n"
    want = b"".join(b"line %06d of the job\n" % i for i in range(50000))
    proc = subprocess.Popen([c.oomdiag, "run", "-q", "--", sys.executable, "-c", code], cwd=c.root, env=c.env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    got = bytearray()
    try:
        time.sleep(1.5)
        while True:
            chunk = os.read(proc.stdout.fileno(), 4096)
            if not chunk:
                break
            got += chunk
            time.sleep(0.02)
        err = proc.stderr.read()
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    check(proc.returncode == 8, f"exit status {proc.returncode}, want 8; stderr {err[-300:]!r}")
    check(bytes(got) == want, f"stdout: {len(got)} bytes, want {len(want)}")


@case
def job_closes_stdout_early(c):
    """A job that closes its stdout and goes on writing to stderr."""
    code = "echo before; exec >&-; sleep 0.3; echo after >&2; exit 5"
    p = c.run(["run", "--", "sh", "-c", code], timeout=30)
    check(p.returncode == 5, f"exit status {p.returncode}, want 5")
    check(p.stdout == b"before\n", f"stdout {p.stdout!r}")
    check(p.stderr.startswith(b"after\n"), f"stderr {p.stderr!r}")
    check(b"exit status 5" in p.stderr, f"no note of the status: {p.stderr!r}")


OOM = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity "
       "of 79.15 GiB of which 1.06 GiB is free. Including non-PyTorch memory, this process has 78.08 GiB memory "
       "in use. Of the allocated memory 76.71 GiB is allocated by PyTorch, and 845.39 MiB is reserved by "
       "PyTorch but unallocated.")
OOM_JOB = ["sh", "-c", f"echo 'step 1'; echo '{OOM}' >&2; exit 1"]


@case
def log_on_full_disk(c):
    """--log /dev/full: a warning naming ENOSPC; the job runs, its output
    passes, the diagnosis is made, the status is the job's."""
    p = c.run(["run", "--log", "/dev/full", "--"] + OOM_JOB)
    check(p.returncode == 1, f"exit status {p.returncode}, want 1")
    check(p.stdout == b"step 1\n", f"stdout {p.stdout!r}")
    check(b"/dev/full: warning: writing the log failed: No space left on device" in p.stderr, f"{p.stderr!r}")
    check(b"ROOT CAUSE gpu-oom" in p.stderr, f"no diagnosis: {p.stderr[-400:]!r}")


@case
def report_on_full_disk(c):
    """--report /dev/full: an error naming ENOSPC, and the report goes to
    stderr instead (nothing lost); the status is the job's.  Before the
    fix the report was lost ("writing the report failed")."""
    p = c.run(["run", "--format", "json", "--report", "/dev/full", "--"] + OOM_JOB)
    check(p.returncode == 1, f"exit status {p.returncode}, want 1")
    check(b"writing the report failed: No space left on device; it goes to standard error" in p.stderr,
          f"{p.stderr!r}")
    start = p.stderr.find(b"{")
    check(start >= 0, f"no JSON report on stderr: {p.stderr!r}")
    doc = json.loads(p.stderr[start:p.stderr.rfind(b"}") + 1])
    check(roots(doc) == ["gpu-oom"], f"root causes {roots(doc)}")


@case
def stdout_on_full_disk(c):
    """oomdiag's stdout is /dev/full: a warning; the job is not killed by
    SIGPIPE (it never sees oomdiag's trouble), its later output is still
    scanned, the status is the job's.  Before the fix oomdiag closed the
    pipe and the job died of SIGPIPE (141) on its next write."""
    code = "echo one; sleep 0.2; i=0; while [ $i -lt 2000 ]; do echo line $i; i=$((i+1)); done; " \
           f"echo '{OOM}' ; exit 6"
    with open("/dev/full", "wb") as full:
        p = c.run(["run", "--", "sh", "-c", code], stdout=full)
    check(p.returncode == 6, f"exit status {p.returncode}, want 6: {p.stderr[-300:]!r}")
    check(b"warning: writing the job's stdout to oomdiag's failed: No space left on device" in p.stderr,
          f"{p.stderr!r}")
    check(b"ROOT CAUSE gpu-oom" in p.stderr, f"the OOM after the failure was not scanned: {p.stderr[-400:]!r}")


@case
def signal_storm(c):
    """A SIGWINCH every millisecond to oomdiag while the job writes 1.3 MB
    (SIGWINCH is harmless: oomdiag resizes the ptys, if any, and passes it
    on; the job ignores it by default).  No byte is lost or doubled, no
    EINTR leaks out as an error, the status is the job's."""
    log = c.path("storm.log")
    code = "import sys, time\nfor i in range(40000):\n    sys.stdout.write('step %d loss 0.5 tail tail tail\\n' % i)\n" \
           "    if i % 4000 == 0: sys.stdout.flush(); time.sleep(0.05)\nsys.stdout.flush()\nsys.exit(7)\n"
    proc = subprocess.Popen([c.oomdiag, "run", "-q", "--log", log, "--", sys.executable, "-c", code], cwd=c.root,
                            env=c.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    sent = [0]
    stop = threading.Event()

    def storm():
        while not stop.is_set():
            try:
                os.kill(proc.pid, signal.SIGWINCH)
            except ProcessLookupError:
                return
            sent[0] += 1
            time.sleep(0.001)

    t = threading.Thread(target=storm)
    t.start()
    try:
        out, err = proc.communicate(timeout=120)
    finally:
        stop.set()
        t.join()
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    want = b"".join(b"step %d loss 0.5 tail tail tail\n" % i for i in range(40000))
    check(proc.returncode == 7, f"exit status {proc.returncode}, want 7; stderr {err[-300:]!r}")
    check(sent[0] > 50, f"only {sent[0]} signals sent")
    check(out == want, f"stdout: {len(out)} bytes, want {len(want)}")
    check(open(log, "rb").read() == want, "the log is not the job's output")
    check(err == b"", f"stderr {err[-300:]!r}")


@case
def job_ignores_sigint_and_sigterm(c):
    """A job that ignores SIGINT and SIGTERM: the first SIGINT to oomdiag is
    passed on and nothing happens; a second one is passed on too, and
    RUN_KILL_GRACE_S (5 s) later oomdiag kills the job's group with
    SIGKILL and reports it.  Before the fix oomdiag waited for ever."""
    facts = c.path("stubborn.facts")
    code = "trap '' INT TERM; echo ready; sleep 60; echo survived"
    proc = subprocess.Popen([c.oomdiag, "run", "--facts", facts, "--", "sh", "-c", code],
                            cwd=c.root, env=c.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        check(proc.stdout.readline() == b"ready\n", "the job did not start")
        os.kill(proc.pid, signal.SIGINT)
        time.sleep(0.5)
        check(proc.poll() is None, "oomdiag ended after one SIGINT to a job that ignores it")
        os.kill(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=40)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    check(proc.returncode == 137, f"exit status {proc.returncode}, want 137; stderr {err!r}")
    check(out == b"", f"stdout {out!r}")
    check(b"warning: the job was still running 5 s after a second signal: killed with SIGKILL" in err, f"{err!r}")
    lines = open(facts).read().splitlines()
    check("oomdiag-run: signals forwarded=2" in lines, f"facts {lines}")
    check("oomdiag-run: killed by oomdiag with SIGKILL: still running 5 s after a second signal" in lines,
          f"facts {lines}")


@case
def too_little_virtual_memory(c):
    """`ulimit -v` too small for oomdiag itself: a clear error, exit 2, no
    crash; the job is not started (a wrapper that cannot watch says so
    before the job runs).  Where oomdiag's own start fits but the job's
    does not, the status is the job's."""
    with open(c.oomdiag, "rb") as f:
        if b"AddressSanitizer" in f.read():  # its shadow memory needs terabytes of address space
            raise Skip("built with AddressSanitizer, which cannot start under ulimit -v")
    p = subprocess.run(["bash", "-c", f"ulimit -v 12000; exec {c.oomdiag} run -- sh -c 'echo ran; exit 3'"],
                       cwd=c.root, env=c.env, capture_output=True, timeout=60)
    check(p.returncode == 2, f"exit status {p.returncode}, want 2; stderr {p.stderr!r}")
    check(p.stderr == b"oomdiag: error: out of memory\n", f"stderr {p.stderr!r}")
    check(p.stdout == b"", f"stdout {p.stdout!r}")
    # Enough for oomdiag, not for what the job allocates: the job's
    # MemoryError and status 1, diagnosed.
    code = "x = bytearray(512 * 1024 * 1024)"
    p = subprocess.run(["bash", "-c", f"ulimit -v 100000; exec {c.oomdiag} run -- {sys.executable} -c '{code}'"],
                       cwd=c.root, env=c.env, capture_output=True, timeout=60)
    check(p.returncode == 1, f"exit status {p.returncode}, want the job's 1: {p.stderr[-300:]!r}")
    check(b"MemoryError" in p.stderr, f"stderr {p.stderr[-300:]!r}")


@case
def ten_thousand_files_few_descriptors(c):
    """A directory of 10,000 logs (and some nested) under `ulimit -n 64`:
    every file is an input of the report."""
    d = c.path("many")
    os.makedirs(d)
    for i in range(10000):
        with open(os.path.join(d, f"f{i:05d}.log"), "w") as f:
            f.write(f"step {i}\n")
    os.makedirs(os.path.join(d, "a", "b", "c"))
    with open(os.path.join(d, "a", "b", "c", "oom.log"), "w") as f:
        f.write(OOM + "\n")
    p = subprocess.run(["bash", "-c", f"ulimit -n 64; exec {c.oomdiag} --format json {d}"], cwd=c.root, env=c.env,
                       capture_output=True, timeout=120)
    check(p.returncode == 0, f"exit status {p.returncode}: {p.stderr[-300:]!r}")
    doc = json.loads(p.stdout)
    paths = {i["path"] for job in doc["jobs"] for i in job["inputs"]}
    check(len(paths) == 10001, f"{len(paths)} inputs, want 10001")
    check(roots(doc) == ["gpu-oom"], f"root causes {roots(doc)}")
    p = subprocess.run(["bash", "-c", f"ulimit -n 64; exec {c.oomdiag} --each --format ndjson {d}"], cwd=c.root,
                       env=c.env, capture_output=True, timeout=120)
    check(p.returncode == 0, f"--each: exit status {p.returncode}: {p.stderr[-300:]!r}")
    lines = [json.loads(x) for x in p.stdout.splitlines()]
    paths = {i["path"] for x in lines for i in x.get("inputs", [])}
    check(len(paths) == 10001, f"--each: {len(paths)} inputs, want 10001")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oomdiag", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        c = Ctx(os.path.abspath(args.oomdiag), os.path.abspath(args.root), tmp)
        for fn in CASES:
            if args.names and fn.__name__ not in args.names:
                continue
            t0 = time.time()
            try:
                fn(c)
                print(f"PASS {fn.__name__} ({time.time() - t0:.1f} s)")
            except Skip as e:
                print(f"SKIP {fn.__name__}: {e}")
            except Exception as e:  # noqa: BLE001 - report every failure
                failures += 1
                print(f"FAIL {fn.__name__}: {type(e).__name__}: {e}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
