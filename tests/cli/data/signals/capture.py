#!/usr/bin/env python3
"""Captures what shells print when a child dies from a signal, per message
locale, into LOCALE.log beside this script (real output for the shell rules'
samples and the cli transcripts).  Needs bash, dash and zsh; the locale's
messages come from glibc's libc.mo and bash.mo (libc-l10n, bash), selected
with LANGUAGE on top of LANG=C.UTF-8.

  capture.py [--out DIR] [LOCALE...]      (default: the locales below and C)
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
        parts.append("$ python3 -c 'import locale, mmap; locale.setlocale(locale.LC_ALL, \"\"); mmap.mmap(-1, 1 << 50)'\n")
        parts.append(run(["python3", "-c", 'import locale, mmap; locale.setlocale(locale.LC_ALL, ""); mmap.mmap(-1, 1 << 50)'], env, d, False))
    return "".join(parts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("locales", nargs="*")
    args = ap.parse_args()
    for loc in args.locales or LOCALES:
        with open(os.path.join(args.out, loc + ".log"), "w", encoding="utf-8") as f:
            f.write(capture(loc))


if __name__ == "__main__":
    main()
