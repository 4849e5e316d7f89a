#!/usr/bin/env python3
"""Captures what shells print when a child dies from a signal, per message
locale, into LOCALE.log beside this script (real output for the shell rules'
samples and the cli transcripts).  Needs bash, dash and zsh; the locale's
messages come from glibc's libc.mo and bash.mo (libc-l10n, bash), selected
with LANGUAGE on top of LANG=C.UTF-8.

  capture.py [--out DIR] [LOCALE...]      (default: the locales below and C)
  capture.py --fixtures DIR                (the fixtures/*-l10n-capture.log jobs)

The fixture jobs are small training-like scripts run by bash in one locale:
a process that SIGKILLs itself (what bash prints is the same as for the
OOM killer's SIGKILL), a real segmentation fault (ctypes reads address 0),
a SIGBUS, and Python's mmap failing with ENOMEM (a 1 PiB anonymous map).
The per-locale logs also hold bash's `fork: Cannot allocate memory`, got
by forking in a PID namespace whose init has exited (unshare -p, as root).
"""
import argparse
import os
import pty
import select
import shutil
import subprocess
import tempfile
import time

LOCALES = ["C", "zh_CN", "zh_TW", "ja", "ko", "de", "fr", "es", "pt", "pt_BR", "ru"]
SIGNALS = ["KILL", "SEGV", "BUS", "ABRT", "FPE", "ILL"]


def env_for(loc):
    env = {"PATH": "/usr/bin:/bin", "HOME": os.environ.get("HOME", "/tmp"), "TERM": "dumb", "LANG": "C.UTF-8"}
    if loc != "C":
        env["LANGUAGE"] = loc
    return env


def run(argv, env, cwd, core):
    pre = "ulimit -c %s; " % ("unlimited" if core else "0")
    p = subprocess.run(["bash", "-c", pre + 'exec "$@"', "-"] + argv, env=env, cwd=cwd,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
    return p.stdout.decode("utf-8", "replace")


def pty_session(argv, lines, env, cwd, core):
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(cwd)
        os.execve("/bin/bash", ["bash", "-c", "ulimit -c %s; exec \"$@\"" % ("unlimited" if core else "0"), "-"] + argv, env)
    out = b""

    def drain(t):
        nonlocal out
        end = time.time() + t
        while time.time() < end:
            r, _, _ = select.select([fd], [], [], 0.05)
            if r:
                try:
                    out += os.read(fd, 4096)
                except OSError:
                    return

    drain(0.5)
    for line in lines:
        os.write(fd, (line + "\n").encode())
        drain(0.6)
    drain(0.5)
    os.close(fd)
    os.waitpid(pid, 0)
    return out.decode("utf-8", "replace").replace("\r\n", "\n")


def capture(loc):
    env = env_for(loc)
    parts = []
    with tempfile.TemporaryDirectory() as d:
        inputrc = os.path.join(d, "inputrc")
        with open(inputrc, "w") as f:
            f.write("set enable-bracketed-paste off\n")
        env_i = dict(env, INPUTRC=inputrc, PS1="$ ")
        for core in (False, True):
            kills = "; ".join('bash -c "kill -%s \\$\\$"' % s for s in SIGNALS) + "; true"
            parts.append("$ bash -c '%s'   # ulimit -c %s\n" % (kills, "unlimited" if core else "0"))
            parts.append(run(["bash", "-c", kills], env, d, core))
        script = os.path.join(d, "train.sh")
        with open(script, "w") as f:
            f.write('echo "epoch 1"\n')
            f.write('python3 -c "import os, signal; os.kill(os.getpid(), signal.SIGKILL)"\n')
            f.write('python3 -c "import ctypes; ctypes.string_at(0)"\n')
            f.write('echo x | python3 -c "import ctypes; ctypes.string_at(0)"\n')
            f.write('true\n')
        parts.append("$ bash train.sh   # ulimit -c unlimited\n")
        parts.append(run(["bash", "train.sh"], env, d, True).replace(d + "/", ""))
        session = ['bash -c "kill -%s \\$\\$"' % sig for sig in SIGNALS] + ['sleep 30 &', 'kill -9 %1', 'sleep 0.3', 'exit']
        parts.append("$ bash -i   # on a terminal, ulimit -c unlimited\n")
        parts.append(pty_session(["bash", "--norc", "--noprofile", "-i"],
                                 session, env_i, d, True))
        if loc == "C":
            for sh in ("dash", "zsh"):
                if not shutil.which(sh):
                    continue
                parts.append("$ %s -c '%s'   # ulimit -c 0\n" % (sh, kills))
                parts.append(run([sh, "-c", kills], env, d, False))
                parts.append("$ %s -i   # on a terminal, ulimit -c unlimited\n" % sh)
                parts.append(pty_session([sh, "-f", "-i"] if sh == "zsh" else [sh, "-i"],
                                         (['unsetopt prompt_sp; unset zle_bracketed_paste'] if sh == "zsh" else []) +
                                         ['PS1="$ "'] + session, env_i, d, True))
        if shutil.which("unshare"):
            # a new PID namespace whose first child (its init) has exited:
            # every later fork() of the shell fails with ENOMEM
            parts.append("$ unshare -p bash -c '/bin/true; /bin/true; true'\n")
            parts.append(run(["unshare", "-p", "bash", "-c", "/bin/true; /bin/true; true"], env, d, False))
        parts.append("$ python3 -c 'import locale, mmap; locale.setlocale(locale.LC_ALL, \"\"); mmap.mmap(-1, 1 << 50)'\n")
        parts.append(run(["python3", "-c", 'import locale, mmap; locale.setlocale(locale.LC_ALL, ""); mmap.mmap(-1, 1 << 50)'], env, d, False))
    return "".join(parts)


TRAIN = r"""
import os, signal, sys, ctypes, mmap, locale
mode = sys.argv[1]
if mode == "enomem":
    locale.setlocale(locale.LC_ALL, "")
print("loading dataset: 50000 samples", flush=True)
for epoch in range(1, 4):
    print("epoch %d/10 step %d loss %.4f" % (epoch, epoch * 391, 2.3 / epoch), flush=True)
if mode == "kill":
    os.kill(os.getpid(), signal.SIGKILL)
elif mode == "segv":
    ctypes.string_at(0)
elif mode == "bus":
    os.kill(os.getpid(), signal.SIGBUS)
elif mode == "enomem":
    buf = mmap.mmap(-1, 1 << 50)
"""

FIXTURES = [
    ("host-oom-kill-bash-killed-zh_CN-l10n-capture.log", "zh_CN", "kill"),
    ("host-oom-kill-bash-killed-de-l10n-capture.log", "de", "kill"),
    ("crash-bash-segfault-core-ko-l10n-capture.log", "ko", "segv"),
    ("crash-bash-bus-error-ru-l10n-capture.log", "ru", "bus"),
    ("crash-bash-segfault-pt_BR-l10n-capture.log", "pt_BR", "segv"),
    ("host-oom-python-enomem-zh_TW-l10n-capture.log", "zh_TW", "enomem"),
    ("host-oom-python-enomem-fr-l10n-capture.log", "fr", "enomem"),
]


def fixtures(out):
    for name, loc, mode in FIXTURES:
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "train.py"), "w") as f:
                f.write(TRAIN)
            with open(os.path.join(d, "run.sh"), "w") as f:
                f.write('echo "job started"\npython3 train.py %s\n' % mode)
            text = run(["bash", "run.sh"], env_for(loc), d, mode == "segv").replace(d + "/", "")
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            f.write(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--fixtures", metavar="DIR")
    ap.add_argument("locales", nargs="*")
    args = ap.parse_args()
    if args.fixtures:
        fixtures(args.fixtures)
        return
    for loc in args.locales or LOCALES:
        with open(os.path.join(args.out, loc + ".log"), "w", encoding="utf-8") as f:
            f.write(capture(loc))


if __name__ == "__main__":
    main()
