#!/usr/bin/env python3
"""`oomdiag run`, `--tee`, `--follow` and the progress line, with real child
processes, pipes, signals and ptys.

  run_check.py --oomdiag build/oomdiag --root . GROUP [CASE...]

GROUP: run | tee | follow | progress.  Each case prints PASS, FAIL or SKIP
(script(1) missing); the exit status is 1 if any failed, 77 if all skipped.
"""
import argparse
import gzip
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

OOM_FIXTURE = "fixtures/pytorch-oom-capacty-process-in-container.log"
KILLED_FIXTURE = "fixtures/kernel-oom-kill-dmesg.log"
CASES = {}


def case(group):
    def wrap(fn):
        CASES.setdefault(group, []).append(fn)
        return fn
    return wrap


class Ctx:
    def __init__(self, oomdiag, root, tmp):
        self.oomdiag = oomdiag
        self.root = root
        self.tmp = tmp
        self.env = dict(os.environ, NO_COLOR="1", LC_ALL="C")
        self.env.pop("GITHUB_STEP_SUMMARY", None)

    def path(self, name):
        return os.path.join(self.tmp, name)

    def run(self, args, **kw):
        kw.setdefault("timeout", 60)
        return subprocess.run([self.oomdiag] + args, cwd=self.root, env=self.env, capture_output=True, **kw)


class Skip(Exception):
    pass


def need_script():
    if shutil.which("script") is None:
        raise Skip("script(1) is not installed")


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def py(code):
    return [sys.executable, "-c", code]


def roots(report):
    return [d["cause"] for job in report["jobs"] for d in job["diagnoses"] if d["role"] == "root"]


# ---- oomdiag run ---------------------------------------------------------

@case("run")
def oom_traceback_exit_1(c):
    """A Python child prints a real CUDA OOM traceback to stderr and exits 1."""
    rep = c.path("oom.json")
    p = c.run(["run", "--format", "json", "--report", rep, "--"] +
              py(f"import sys; sys.stderr.write(open({OOM_FIXTURE!r}).read()); sys.exit(1)"))
    fixture = open(os.path.join(c.root, OOM_FIXTURE), "rb").read()
    check(p.returncode == 1, f"exit status {p.returncode}, want 1")
    check(p.stdout == b"", f"stdout {p.stdout[:200]!r}, want nothing")
    check(p.stderr == fixture, "stderr is not the child's stderr byte for byte (the report went to --report)")
    doc = json.load(open(rep))
    check(roots(doc)[:1] == ["gpu-oom"], f"root causes {roots(doc)}, want gpu-oom first")
    inputs = [i["path"] for i in doc["jobs"][0]["inputs"]]
    check(inputs == ["(output)", "(oomdiag run)"], f"inputs {inputs}")
    # and as text on stderr, after the job's own output
    p = c.run(["run", "--"] + py(f"import sys; sys.stderr.write(open({OOM_FIXTURE!r}).read()); sys.exit(1)"))
    check(p.returncode == 1, f"text: exit status {p.returncode}")
    check(p.stderr.startswith(fixture), "text: the job's stderr does not come first, unchanged")
    check(b"ROOT CAUSE gpu-oom" in p.stderr[len(fixture):], f"text: no gpu-oom diagnosis: {p.stderr[-600:]!r}")


@case("run")
def sigkill_silent_is_host_oom_kill(c):
    """A child killed by SIGKILL that printed nothing: host-oom-kill, 137."""
    rep = c.path("kill.json")
    p = c.run(["run", "--format", "json", "--report", rep, "--", "sh", "-c", "kill -9 $$"])
    check(p.returncode == 137, f"exit status {p.returncode}, want 137")
    check(p.stdout == b"" and p.stderr == b"", f"output {p.stdout!r} {p.stderr!r}, want none")
    doc = json.load(open(rep))
    check(roots(doc) == ["host-oom-kill"], f"root causes {roots(doc)}, want host-oom-kill")
    d = doc["jobs"][0]["diagnoses"][0]
    texts = [e["text"] for e in d["evidence"]]
    check(any(t.startswith("oomdiag-run: exit signal=9 (SIGKILL) status=137") for t in texts), f"evidence {texts}")
    check(d["evidence"][0]["path"] == "(oomdiag run)", f"evidence path {d['evidence'][0]['path']}")
    # the diagnosis goes to stderr when there is no --report
    p = c.run(["run", "--", "sh", "-c", "kill -9 $$"])
    check(p.returncode == 137 and b"ROOT CAUSE host-oom-kill" in p.stderr, f"stderr {p.stderr[:300]!r}")


@case("run")
def wrapper_exit_137(c):
    """A shell that reports its child's SIGKILL as exit status 137."""
    rep = c.path("137.json")
    p = c.run(["run", "--format", "json", "--report", rep, "--", "sh", "-c", "sh -c 'kill -9 $$'; exit $?"])
    check(p.returncode == 137, f"exit status {p.returncode}")
    check(roots(json.load(open(rep))) == ["host-oom-kill"], "not host-oom-kill")


@case("run")
def success_is_invisible(c):
    """Exit 0: no diagnosis, exit 0, stdout and stderr byte-identical."""
    code = ("import sys\n"
            "o = sys.stdout.buffer; e = sys.stderr.buffer\n"
            "o.write(bytes(range(256)) * 3 + b'no newline at the end\\r')\n"
            "e.write(b'progress 1\\rprogress 2\\r\\n' + b'x' * 300000 + b'\\n')\n"
            "o.write(b'line\\n' * 50000 + b'last')\n")
    want = subprocess.run(py(code), capture_output=True)
    p = c.run(["run", "--"] + py(code))
    check(p.returncode == 0, f"exit status {p.returncode}")
    check(p.stdout == want.stdout, f"stdout differs ({len(p.stdout)} vs {len(want.stdout)} bytes)")
    check(p.stderr == want.stderr, f"stderr differs ({len(p.stderr)} vs {len(want.stderr)} bytes)")
    p = c.run(["run", "--"] + py("import sys; sys.exit(3)"))
    check(p.returncode == 3 and p.stdout == b"", f"exit 3: status {p.returncode}")
    check(b"no known failure" in p.stderr, f"exit 3 without a diagnosis: {p.stderr!r}")


@case("run")
def always_prints_diagnosis(c):
    p = c.run(["run", "--always", "--", "true"])
    check(p.returncode == 0 and p.stderr != b"", f"--always: status {p.returncode}, stderr {p.stderr[:200]!r}")


@case("run")
def stdout_stderr_apart(c):
    """What goes to stdout stays on stdout, stderr on stderr, in order."""
    code = ("import sys\n"
            "for i in range(200):\n"
            "    print('out', i, flush=True)\n"
            "    print('err', i, file=sys.stderr, flush=True)\n")
    p = c.run(["run", "--"] + py(code))
    check(p.returncode == 0, f"exit status {p.returncode}")
    check(p.stdout == b"".join(b"out %d\n" % i for i in range(200)), f"stdout {p.stdout[:100]!r}")
    check(p.stderr == b"".join(b"err %d\n" % i for i in range(200)), f"stderr {p.stderr[:100]!r}")


@case("run")
def unbuffered_pass_through(c):
    """A line appears when the job prints it, not when it ends."""
    proc = subprocess.Popen([c.oomdiag, "run", "--"] +
                            py("import sys, time\nprint('first', flush=True)\ntime.sleep(30)"),
                            cwd=c.root, env=c.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        t0 = time.time()
        line = proc.stdout.readline()
        check(line == b"first\n", f"got {line!r}")
        check(time.time() - t0 < 10, "the line came late")
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


@case("run")
def sigint_reaches_child(c):
    """SIGINT sent to oomdiag reaches the job, which ends; the diagnosis follows."""
    code = ("import signal, sys, time\n"
            "def on_int(sig, frame):\n"
            "    print('child got SIGINT', flush=True)\n"
            "    sys.exit(3)\n"
            "signal.signal(signal.SIGINT, on_int)\n"
            "print('ready', flush=True)\n"
            "time.sleep(30)\n"
            "print('not interrupted', flush=True)\n")
    proc = subprocess.Popen([c.oomdiag, "run", "--"] + py(code), cwd=c.root, env=c.env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        check(proc.stdout.readline() == b"ready\n", "the child did not start")
        t0 = time.time()
        os.kill(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    check(out == b"child got SIGINT\n", f"stdout {out!r}")
    check(proc.returncode == 3, f"exit status {proc.returncode}, want the child's 3")
    check(time.time() - t0 < 10, "took too long")
    # SIGTERM to a child that does not catch it: 128 + 15
    proc = subprocess.Popen([c.oomdiag, "run", "--"] + py("import time\nprint('ready', flush=True)\ntime.sleep(30)"),
                            cwd=c.root, env=c.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        check(proc.stdout.readline() == b"ready\n", "the child did not start")
        os.kill(proc.pid, signal.SIGTERM)
        proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    check(proc.returncode == 143, f"SIGTERM: exit status {proc.returncode}, want 143")


@case("run")
def pty_when_terminal(c):
    """Under script(1) the job sees terminals; in a pipe it does not."""
    need_script()
    code = "import os, sys; print('tty', os.isatty(1), os.isatty(2)); print('err', file=sys.stderr)"
    inner = " ".join(shlex.quote(a) for a in [c.oomdiag, "run", "--"] + py(code))
    p = subprocess.run(["script", "-qec", inner, "/dev/null"], cwd=c.root, env=c.env, capture_output=True,
                       stdin=subprocess.DEVNULL, timeout=60)
    check(p.returncode == 0, f"script: exit status {p.returncode}, {p.stdout!r} {p.stderr!r}")
    check(b"tty True True" in p.stdout, f"under a pty: {p.stdout!r}")
    p = c.run(["run", "--"] + py(code))
    check(p.stdout == b"tty False False\n", f"in a pipe: {p.stdout!r}")


@case("run")
def log_keeps_everything(c):
    """--log holds the whole output, plain and gzip."""
    code = ("import sys\n"
            "for i in range(100000):\n"
            "    sys.stdout.write('step %d loss 0.5\\n' % i)\n"
            "sys.stdout.flush()\n"
            "sys.stderr.write('done\\n')\n")
    for name in ("job.log", "job.log.gz"):
        log = c.path(name)
        p = c.run(["run", "--log", log, "--"] + py(code))
        check(p.returncode == 0, f"{name}: exit status {p.returncode}")
        data = gzip.open(log).read() if name.endswith(".gz") else open(log, "rb").read()
        # Both streams, in the order they came: the job's stderr ("done")
        # may land between two pieces of its stdout.
        check(data.count(b"done\n") == 1 and data.replace(b"done\n", b"", 1) == p.stdout,
              f"{name}: {len(data)} bytes, not stdout ({len(p.stdout)} bytes) with the job's stderr")
        check(data.startswith(b"step 0 loss"), f"{name}: starts {data[:40]!r}")


@case("run")
def closed_reader_reaches_job(c):
    """`oomdiag run -- yes | head -1` ends: the job gets SIGPIPE as without oomdiag."""
    p = subprocess.run(["bash", "-c", f"{shlex.quote(c.oomdiag)} run -q -- yes | head -n 1; echo \"${{PIPESTATUS[0]}}\""],
                       cwd=c.root, env=c.env, capture_output=True, timeout=30)
    check(p.stdout == b"y\n141\n", f"stdout {p.stdout!r}, want y and status 141 (128 + SIGPIPE)")


@case("run")
def cannot_start(c):
    p = c.run(["run", "--", "/nonexistent/train.py"])
    check(p.returncode == 127, f"exit status {p.returncode}, want 127")
    check(b"/nonexistent/train.py" in p.stderr, f"stderr {p.stderr!r}")
    p = c.run(["run"])
    check(p.returncode == 2 and b"no command" in p.stderr, f"no command: {p.returncode} {p.stderr!r}")


@case("run")
def trace_shows_facts(c):
    p = c.run(["run", "--trace", "--", "sh", "-c", "kill -9 $$"])
    check(b"run-exit-sigkill" in p.stderr, f"--trace does not name the rule: {p.stderr[-800:]!r}")


class Shell:
    """An interactive bash on a pty, as a user's terminal."""

    def __init__(self, c):
        import pty
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.chdir(c.root)
            os.execvpe("bash", ["bash", "--norc", "--noprofile", "-i"], dict(c.env, PS1="$ "))
        self.seen = b""
        self.expect(b"$ ")

    def send(self, data):
        os.write(self.fd, data)

    def expect(self, what, timeout=15):
        import select
        end = time.time() + timeout
        while what not in self.seen:
            left = end - time.time()
            if left <= 0:
                raise AssertionError(f"no {what!r} in the terminal: {self.seen[-600:]!r}")
            r, _, _ = select.select([self.fd], [], [], left)
            if r:
                try:
                    chunk = os.read(self.fd, 4096)
                except OSError:
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"the shell ended: {self.seen[-600:]!r}")
                self.seen += chunk
        at = self.seen.index(what) + len(what)
        before, self.seen = self.seen[:at], self.seen[at:]
        return before

    def close(self):
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(self.pid, 0)
        os.close(self.fd)


@case("run")
def interactive_ctrl_c_and_ctrl_z(c):
    """At a terminal, Ctrl-C reaches the job and the diagnosis follows; Ctrl-Z
    stops it and gives the shell back; fg continues it."""
    if shutil.which("bash") is None:
        raise Skip("no bash")
    sh = Shell(c)
    try:
        job = shlex.quote(c.oomdiag) + " run -- python3 -c 'import time; print(\"ready\", flush=True); time.sleep(60)'"
        sh.send(job.encode() + b"; echo status=$?\n")
        sh.expect(b"ready")
        time.sleep(0.3)
        sh.send(b"\x03")
        out = sh.expect(b"status=130")
        check(b"KeyboardInterrupt" in out, f"no KeyboardInterrupt before the status: {out[-400:]!r}")
        check(b"no known failure found in the output of python3 (signal 2)" in out, f"no diagnosis: {out[-400:]!r}")
        sh.expect(b"$ ")
        job = shlex.quote(c.oomdiag) + " run -- sh -c 'echo started; sleep 2; echo finished'"
        sh.send(job.encode() + b"\n")
        sh.expect(b"started")
        time.sleep(0.3)
        sh.send(b"\x1a")
        sh.expect(b"Stopped")
        sh.expect(b"$ ")
        sh.send(b"echo back in the shell\n")
        sh.expect(b"back in the shell\r\n")
        sh.send(b"fg; echo status=$?\n")
        out = sh.expect(b"status=0")
        check(b"finished" in out, f"the job did not go on after fg: {out[-400:]!r}")
    finally:
        sh.close()


# ---- --tee ---------------------------------------------------------------

@case("tee")
def tee_copies_and_diagnoses(c):
    data = open(os.path.join(c.root, OOM_FIXTURE), "rb").read()
    p = c.run(["--tee"], input=b"step 1\r\n" * 1000 + data)
    check(p.stdout == b"step 1\r\n" * 1000 + data, "stdout is not the input")
    check(p.returncode == 0, f"exit status {p.returncode}, want 0")
    check(b"ROOT CAUSE gpu-oom" in p.stderr, f"stderr {p.stderr[:300]!r}")
    p = c.run(["--tee", "--format", "json"], input=b"all good\n")
    check(p.stdout == b"all good\n" and p.returncode == 1, f"clean input: {p.returncode}")
    check(json.loads(p.stderr)["jobs"][0]["diagnoses"] == [], "clean input diagnosed")


@case("tee")
def tee_streams(c):
    """Lines come out as they come in."""
    proc = subprocess.Popen([c.oomdiag, "--tee"], cwd=c.root, env=c.env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdin.write(b"hello\n")
    proc.stdin.flush()
    check(proc.stdout.readline() == b"hello\n", "no line before the end")
    proc.stdin.close()
    proc.stdout.read()
    proc.stderr.read()
    proc.wait(timeout=20)
    check(proc.returncode == 1, f"exit status {proc.returncode}")


# ---- --follow ------------------------------------------------------------

def wait_event(proc, timeout=15):
    """The next ndjson line from --follow, or None."""
    import selectors
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    if not sel.select(timeout):
        return None
    line = proc.stdout.readline()
    return json.loads(line) if line else None


@case("follow")
def follow_grows_rotates_truncates(c):
    log = c.path("train.log")
    oom = open(os.path.join(c.root, OOM_FIXTURE), "rb").read()
    killed = b"Killed\n"
    proc = subprocess.Popen([c.oomdiag, "--follow", log, "--format", "ndjson"], cwd=c.root, env=c.env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        time.sleep(0.3)  # the file does not exist yet: it waits
        with open(log, "wb") as f:
            f.write(b"epoch 1 step 1 loss 2.0\n")
            f.flush()
            time.sleep(0.3)
            f.write(oom)
            f.flush()
        ev = wait_event(proc)
        check(ev is not None, "no event for the OOM in the growing file")
        check([d["cause"] for d in ev["diagnoses"] if d["role"] == "root"] == ["gpu-oom"], f"event {ev}")
        check(ev["diagnoses"][0]["evidence"][0]["line"] == 4, f"line {ev['diagnoses'][0]['evidence'][0]['line']}")
        # rotation: the file is moved away and a new one starts
        os.rename(log, log + ".1")
        with open(log, "wb") as f:
            f.write(b"restarted\n" + killed)
        ev = wait_event(proc)
        check(ev is not None, "no event after rotation")
        d = ev["diagnoses"][0]
        check(d["cause"] == "host-oom-kill" and d["evidence"][0]["line"] == 2, f"after rotation: {d['cause']} "
              f"line {d['evidence'][0]['line']}")
        # truncation: the same file starts over
        with open(log, "wb") as f:
            f.write(b"again\n" + oom)
        ev = wait_event(proc)
        check(ev is not None, "no event after truncation")
        d = ev["diagnoses"][0]
        check(d["cause"] == "gpu-oom" and d["evidence"][0]["line"] == 4, f"after truncation: {d['cause']}")
        check(wait_event(proc, 1.5) is None, "a root cause reported twice")
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    check(proc.returncode == 0, f"exit status after Ctrl-C {proc.returncode}, want 0 (diagnosed)")
    check(out == b"", f"more events at the end: {out[:200]!r}")
    check(b"truncated" in err and b"rotated" in err, f"notes {err!r}")


@case("follow")
def follow_directory_as_one_job(c):
    """--follow DIR (a torchrun --log-dir): one job of every file in it, those
    there already and those that appear later, each root cause reported once."""
    d = c.path("logdir")
    os.makedirs(os.path.join(d, "attempt_0", "0"))
    os.makedirs(os.path.join(d, "attempt_0", "1"))
    oom = open(os.path.join(c.root, OOM_FIXTURE), "rb").read()
    with open(os.path.join(d, "attempt_0", "0", "stderr.log"), "wb") as f:
        f.write(b"[rank0] step 1 loss 2.0\n")
    proc = subprocess.Popen([c.oomdiag, "--follow", d, "--format", "ndjson"], cwd=c.root, env=c.env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        time.sleep(0.5)
        with open(os.path.join(d, "attempt_0", "1", "stderr.log"), "wb") as f:
            f.write(oom)  # a file that appears after the start
        ev = wait_event(proc)
        check(ev is not None, "no event for the OOM in a file that appeared in the directory")
        roots = [x for x in ev["diagnoses"] if x["role"] == "root"]
        check([x["cause"] for x in roots] == ["gpu-oom"], f"event {ev}")
        check(roots[0]["evidence"][0]["path"].endswith("attempt_0/1/stderr.log"), f"path {roots[0]['evidence'][0]}")
        check(len(ev["inputs"]) == 2, f"inputs {ev['inputs']}")
        with open(os.path.join(d, "attempt_0", "0", "stderr.log"), "ab") as f:
            f.write(b"Killed\n")  # a file there from the start grows
        ev = wait_event(proc)
        check(ev is not None, "no event for the growing first file")
        check(ev["diagnoses"][0]["evidence"][0]["path"].endswith("attempt_0/0/stderr.log"), f"event {ev}")
        check(wait_event(proc, 1.5) is None, "a root cause reported twice")
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    check(proc.returncode == 0, f"exit status after Ctrl-C {proc.returncode}, want 0 (diagnosed)")
    check(b"waiting" not in err, f"it waited for an existing directory: {err!r}")


@case("follow")
def follow_nothing_found(c):
    log = c.path("quiet.log")
    open(log, "wb").write(b"all fine\n")
    proc = subprocess.Popen([c.oomdiag, "--follow", log], cwd=c.root, env=c.env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(0.8)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=20)
    check(proc.returncode == 1, f"exit status {proc.returncode}, want 1")


# ---- progress --------------------------------------------------------------

SLOW_PIPE = "(echo one; sleep 2; echo two) | "


@case("progress")
def progress_on_terminal(c):
    need_script()
    inner = SLOW_PIPE + shlex.quote(c.oomdiag)
    p = subprocess.run(["script", "-qec", inner, "/dev/null"], cwd=c.root, env=c.env, capture_output=True,
                       stdin=subprocess.DEVNULL, timeout=60)
    check(b"\roomdiag: " in p.stdout and b"read, " in p.stdout, f"no progress line under a pty: {p.stdout!r}")
    check(b"\r\x1b[K" in p.stdout, "the progress line is not cleared")
    big = c.path("big.log")
    with open(big, "wb") as f:
        f.write(b"x" * 100 + b"\n" * 1)
    p = subprocess.run(["script", "-qec", shlex.quote(c.oomdiag) + " --progress " + shlex.quote(big), "/dev/null"],
                       cwd=c.root, env=c.env, capture_output=True, stdin=subprocess.DEVNULL, timeout=60)
    check(b" of " in p.stdout and b"%)" in p.stdout, f"no percent for a file: {p.stdout!r}")


@case("progress")
def no_progress_in_pipe_or_when_asked(c):
    need_script()
    p = subprocess.run(["sh", "-c", SLOW_PIPE + shlex.quote(c.oomdiag)], cwd=c.root, env=c.env,
                       capture_output=True, timeout=60)
    check(b"\r" not in p.stderr and p.stderr == b"", f"progress in a pipe: {p.stderr!r}")
    for opt in ("--no-progress", "-q"):
        inner = SLOW_PIPE + shlex.quote(c.oomdiag) + " " + opt
        p = subprocess.run(["script", "-qec", inner, "/dev/null"], cwd=c.root, env=c.env, capture_output=True,
                           stdin=subprocess.DEVNULL, timeout=60)
        check(b"\roomdiag: " not in p.stdout, f"progress with {opt}: {p.stdout!r}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oomdiag", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("group", choices=sorted(CASES))
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    failures = skipped = ran = 0
    with tempfile.TemporaryDirectory() as tmp:
        c = Ctx(os.path.abspath(args.oomdiag), os.path.abspath(args.root), tmp)
        for fn in CASES[args.group]:
            if args.names and fn.__name__ not in args.names:
                continue
            ran += 1
            try:
                fn(c)
                print(f"PASS {fn.__name__}")
            except Skip as e:
                skipped += 1
                print(f"SKIP {fn.__name__}: {e}")
            except Exception as e:  # noqa: BLE001 - report every failure
                failures += 1
                print(f"FAIL {fn.__name__}: {type(e).__name__}: {e}")
    if failures:
        sys.exit(1)
    sys.exit(77 if ran and skipped == ran else 0)


if __name__ == "__main__":
    main()
