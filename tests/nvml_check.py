#!/usr/bin/env python3
"""oomdiag run's GPU sampling (NVML) and --stall, with real child processes.

  nvml_check.py --oomdiag BIN --fake-nvml DIR

DIR holds tests/fake_nvml built as libnvidia-ml.so.1; LD_LIBRARY_PATH set to
it makes oomdiag load it instead of NVIDIA's (which it answers for from
FAKE_NVML_* variables). Checks:
- without NVML, `oomdiag run` behaves exactly as with --no-nvml (output,
  report, exit status, facts but for times and sizes); --trace says why;
- a bare 'CUDA error: out of memory' is variant other-process from the
  NVML facts alone (another process holding 60 of 80 GiB), and naming it;
  memory no process holds is the leftover context; an Xid 79 is
  gpu-hardware with the card's PCI bus id, serial and the host;
- the issue's test: --stall=1s --stall-signal=TERM reports hang and exits
  143 within a few seconds; a busy GPU is no stall; an idle one is;
- --follow --stall reports a log that stopped growing as hang.
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

ap = argparse.ArgumentParser()
ap.add_argument("--oomdiag", required=True)
ap.add_argument("--fake-nvml", required=True)
args = ap.parse_args()
OD = args.oomdiag
problems = []
scratch = tempfile.mkdtemp(prefix="oomdiag-nvml-")


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        problems.append(what)


def env(fake=False, **extra):
    e = {k: v for k, v in os.environ.items() if not k.startswith("FAKE_NVML_")}
    e["LD_LIBRARY_PATH"] = args.fake_nvml if fake else os.path.join(scratch, "no-nvml-here")
    e.update({k: str(v) for k, v in extra.items()})
    return e


def run(argv, e, timeout=30):
    t = time.monotonic()
    p = subprocess.run([OD] + argv, env=e, capture_output=True, timeout=timeout)
    return p.returncode, p.stdout.decode(), p.stderr.decode(), time.monotonic() - t


def facts(path):
    text = open(path).read()
    # times and sizes differ from run to run
    text = re.sub(r"elapsed [\d.]+ s", "elapsed T s", text)
    return re.sub(r"maxrss=\d+ bytes", "maxrss=N bytes", text)


def only(report):
    doc = json.loads(report)
    return [d for j in doc["jobs"] for d in j["diagnoses"] if d["role"] == "root"]


def run_report(argv, e):
    """`oomdiag run --format json --report FILE ARGV...`: exit status, root diagnoses."""
    rep = os.path.join(scratch, "report.json")
    rc, out, err, took = run(["run", "--format", "json", "--report", rep] + argv, e)
    return rc, only(open(rep).read())


# 1. No NVML: exactly as with --no-nvml.
job = ["--", "sh", "-c", "echo step 3; echo 'RuntimeError: CUDA error: out of memory' >&2; exit 1"]
fa, fb = os.path.join(scratch, "a.facts"), os.path.join(scratch, "b.facts")
ra = run(["run", "--facts", fa] + job, env())
rb = run(["run", "--no-nvml", "--facts", fb] + job, env())
check(ra[:3] == rb[:3], "no NVML: stdout, stderr and exit status as with --no-nvml")
check(facts(fa) == facts(fb), "no NVML: the same facts as with --no-nvml")
check("nvml" not in open(fa).read() and "oomdiag-run: host " not in re.sub("host MemTotal", "", open(fa).read()),
      "no NVML: no nvml or host line in the facts")
rc, out, err, _ = run(["run", "--trace"] + job, env())
check("NVML not loaded (no GPU memory sampling)" in err, "no NVML: --trace says why")
rc, out, err, _ = run(["run"] + job, env())
check("NVML" not in err, "no NVML: nothing said without --trace")

# 2. Another process holds 60 of 80 GiB: other-process from NVML alone.
holder = subprocess.Popen(["sleep", "60"])
try:
    e = env(True, FAKE_NVML_OTHERS=f"{holder.pid}:64424509440", FAKE_NVML_JOB_BYTES=1 << 30)
    fc = os.path.join(scratch, "c.facts")
    rc, roots = run_report(["--facts", fc, "--", "sh", "-c",
                            "sleep 0.6; echo 'RuntimeError: CUDA error: out of memory' >&2; exit 1"], e)
    check(rc == 1 and len(roots) == 1 and roots[0]["cause"] == "gpu-oom" and roots[0]["variant"] == "other-process",
          "fake NVML: a bare CUDA OOM is other-process from the facts")
    f = roots[0]["fields"] if roots else {}
    check(f.get("holder_pid") == holder.pid and f.get("holder_name") == f"fake-holder-{holder.pid}"
          and f.get("pci_bus_id") == "00000000:3B:00.0" and f.get("gpu_serial") == 1650000000001 and "host" in f,
          "fake NVML: the holder's pid and name, the card's bus id and serial, the host")
    check(roots and roots[0]["remediation"][0]["action"].startswith(f"Stop process {holder.pid} (fake-holder-"),
          "fake NVML: the first fix stops the holder")
    fl = os.path.join(scratch, "c.log")
    open(fl, "w").write("RuntimeError: CUDA error: out of memory\n")
    rc, out, err, _ = run(["--format", "json", "--one-job", fl, fc], env())
    check(only(out) and only(out)[0]["variant"] == "other-process", "the log and its facts file, later: other-process")
    fo = os.path.join(scratch, "only-log.txt")
    open(fo, "w").write("RuntimeError: CUDA error: out of memory\n")
    rc, out, err, _ = run(["--format", "json", fo], env())
    check(only(out)[0]["variant"] != "other-process", "the log alone is not other-process")
finally:
    holder.kill()
    holder.wait()

# 3. Memory no process holds: the leftover context.
e = env(True, FAKE_NVML_UNACCOUNTED=50 << 30, FAKE_NVML_JOB_BYTES=1 << 30)
rc, roots = run_report(["--", "sh", "-c", "sleep 0.6; echo 'RuntimeError: CUDA error: out of memory' >&2; exit 1"],
                       e)
check(roots and roots[0]["variant"] == "other-process"
      and roots[0]["remediation"][0]["action"].startswith("Free the memory no process holds"),
      "fake NVML: unaccounted memory is the leftover context, its fix first")

# 4. An Xid 79 seen by NVML: gpu-hardware.
e = env(True, FAKE_NVML_XID=79)
rc, roots = run_report(["--", "sh", "-c", "sleep 0.6; exit 1"], e)
check(roots and roots[0]["cause"] == "gpu-hardware" and roots[0]["fields"].get("xid") == 79
      and roots[0]["fields"].get("pci_bus_id") == "00000000:3B:00.0", "fake NVML: Xid 79 is gpu-hardware")

# 5. The stall test, without NVML.
rc, out, err, took = run(["run", "--stall=1s", "--stall-signal=TERM", "--", "sh", "-c", "echo step 1; exec sleep 30"],
                         env())
check(rc == 143 and took < 5, f"--stall=1s --stall-signal=TERM: exit 143 after {took:.2f} s")
check(err.count("ROOT CAUSE hang") >= 1 and "after step 1" in err, "--stall: hang reported with the last step")
rc, roots = run_report(["--stall=1s", "--", "sh", "-c", "echo step 1; sleep 2; exit 3"], env())
check(rc == 3 and [d["cause"] for d in roots] == ["hang"], "--stall without a signal: the job runs on, its own status")
rc, out, err, took = run(["run", "--stall=1s", "--", "sh", "-c", "echo a; sleep 1.5; echo b; exit 4"], env())
check(rc == 4 and err.count("ROOT CAUSE hang") == 1, "a stall the job came out of: reported once, not at its end")

# 5b. py-spy on the PATH: its dump goes into the report. A stand-in prints
# what py-spy's dump prints (its src/dump.rs: "Process P: CMDLINE",
# "Python vX (EXE)", "Thread T (STATUS): \"NAME\"", frames innermost first as
# "    NAME (FILE:LINE)"), and refuses a pid it is told is no Python.
bindir = os.path.join(scratch, "bin")
os.makedirs(bindir, exist_ok=True)
with open(os.path.join(bindir, "py-spy"), "w") as f:
    f.write("""#!/bin/sh
[ "$1" = dump ] && [ "$2" = --pid ] || exit 2
[ -n "$NOT_PYTHON" ] && { echo "Error: Failed to find python version from target process" >&2; exit 1; }
echo "Process $3: python3 train.py"
echo "Python v3.12.3 (/usr/bin/python3.12)"
echo
echo 'Thread '$3' (idle): "MainThread"'
echo "    wait (threading.py:355)"
echo "    all_reduce (torch/distributed/distributed_c10d.py:2806)"
echo "    train_step (train.py:88)"
""")
os.chmod(os.path.join(bindir, "py-spy"), 0o755)
e = env(PATH=bindir + ":" + os.environ["PATH"])
rc, out, err, took = run(["run", "--stall=1s", "--stall-signal=TERM", "--", "sh", "-c", "echo step 1; exec sleep 30"], e)
check(rc == 143 and "py-spy found it waiting in wait (threading.py:355)" in err
      and "stall py-spy pid=" in err, "py-spy on the PATH: where the job waits is in the report")
e["NOT_PYTHON"] = "1"
rc, out, err, took = run(["run", "--stall=1s", "--stall-signal=TERM", "--", "sh", "-c", "echo step 1; exec sleep 30"], e)
check(rc == 143 and "py-spy" in err and "stall py-spy pid=" not in err, "py-spy refusing a process: nothing of it")

# 6. With NVML: a busy GPU is no stall; an idle one is, with what it did.
e = env(True, FAKE_NVML_JOB_BYTES=2 << 30, FAKE_NVML_UTIL=97)
rc, out, err, took = run(["run", "--stall=1s", "--stall-signal=TERM", "--", "sh", "-c",
                          "echo step 1; sleep 2.5; echo step 2"], e)
check(rc == 0 and "hang" not in err, "fake NVML: quiet output but a busy GPU is no stall")
e = env(True, FAKE_NVML_JOB_BYTES=2 << 30, FAKE_NVML_UTIL=0)
rc, out, err, took = run(["run", "--stall=1s", "--stall-signal=TERM", "--", "sh", "-c",
                          "echo step 1; sleep 0.5; exec sleep 30"], e)
check(rc == 143 and "gpus-idle" in err and "0% utilisation" in err, "fake NVML: an idle GPU and a quiet job: hang")

# 7. --follow --stall.
log = os.path.join(scratch, "train.log")
open(log, "w").write("epoch 0 step 41 loss 2.1\n")
p = subprocess.Popen([OD, "--follow", log, "--stall=1s", "--format", "ndjson"], env=env(),
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
time.sleep(2.5)
p.send_signal(signal.SIGINT)
out, err = p.communicate(timeout=10)
lines = [json.loads(x) for x in out.decode().splitlines() if x.strip()]
hang = [d for j in lines for d in j["diagnoses"] if d["cause"] == "hang"]
check(p.returncode == 0 and len(hang) == 1 and hang[0]["fields"].get("stall_step") == 41 and "after step 41" in hang[0]["summary"] if hang else False,
      "--follow --stall: a log that stopped growing is one hang, with its last step")

# 8. Usage.
rc, out, err, _ = run(["run", "--stall-signal=TERM", "--", "true"], env())
check(rc == 2 and "--stall-signal needs --stall" in err, "--stall-signal without --stall is a usage error")
rc, out, err, _ = run(["--stall=1s", "x.log"], env())
check(rc == 2, "--stall when reading files is a usage error")
rc, out, err, _ = run(["run", "--stall=soon", "--", "true"], env())
check(rc == 2, "a bad --stall duration is a usage error")

print(f"nvml: {len(problems)} problem(s)")
sys.exit(1 if problems else 0)
