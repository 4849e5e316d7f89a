#!/usr/bin/env python3
"""`oomdiag run` in a memory-limited cgroup v2: a child allocates past
memory.max, the kernel's OOM killer kills it, and the diagnosis must be
host-oom-kill at high confidence, citing memory.events.

The test never picks a cgroup by itself.  It runs only when
OOMDIAG_TEST_CGROUP names a cgroup v2 directory delegated to it (writable,
with the memory controller available); there it creates one child cgroup,
moves a shell into it, runs oomdiag from that shell and removes the child
cgroup afterwards.  Anywhere else it exits 77 (a skip, not a pass) and says
why.  Machines whose cgroups belong to their own management (a CI runner,
a shared development VM on cgroup v1) must not set the variable.

  cgroup_check.py --oomdiag build/oomdiag [--out DIR]

--out DIR keeps the facts, the JSON report and the transcript there.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

SKIP = 77
ALLOC = ("import sys\n"
         "chunks = []\n"
         "print('allocating', flush=True)\n"
         "for i in range(4096):\n"
         "    chunks.append(bytearray(1 << 20))\n"  # 1 MiB, touched (zeroed) pages
         "print('allocated 4 GiB without being killed', flush=True)\n")


def skip(why):
    print(f"SKIPPED: {why}")
    sys.exit(SKIP)


def mounted_cgroup2(path):
    best = None
    with open("/proc/self/mountinfo") as f:
        for line in f:
            left, _, right = line.partition(" - ")
            if not right.startswith("cgroup2 "):
                continue
            mnt = left.split()[4]
            if (path == mnt or path.startswith(mnt.rstrip("/") + "/")) and (best is None or len(mnt) > len(best)):
                best = mnt
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oomdiag", required=True)
    ap.add_argument("--out")
    args = ap.parse_args()
    base = os.environ.get("OOMDIAG_TEST_CGROUP")
    if not base:
        v2 = os.path.exists("/sys/fs/cgroup/cgroup.controllers")
        skip("OOMDIAG_TEST_CGROUP is not set (it must name a cgroup v2 directory delegated to this test; "
             f"this machine's /sys/fs/cgroup is {'cgroup v2' if v2 else 'not a cgroup v2 hierarchy (cgroup v1)'}, "
             "and its cgroups are not the test's to write)")
    base = os.path.realpath(base)
    if not os.path.isdir(base) or mounted_cgroup2(base) is None:
        skip(f"{base} is not a directory of a cgroup2 file system")
    if not os.access(base, os.W_OK):
        skip(f"{base} is not writable: not delegated to this test")
    controllers = open(os.path.join(base, "cgroup.controllers")).read().split()
    if "memory" not in controllers:
        skip(f"the memory controller is not available in {base} ({' '.join(controllers) or 'none'})")
    subtree = os.path.join(base, "cgroup.subtree_control")
    if "memory" not in open(subtree).read().split():
        try:
            with open(subtree, "w") as f:
                f.write("+memory")
        except OSError as e:
            skip(f"cannot enable the memory controller for children of {base}: {e}")
    cg = os.path.join(base, f"oomdiag-test-{os.getpid()}")
    os.mkdir(cg)
    out = args.out or cg + ".out"
    os.makedirs(out, exist_ok=True)
    facts, report = os.path.join(out, "facts.log"), os.path.join(out, "report.json")
    try:
        with open(os.path.join(cg, "memory.max"), "w") as f:
            f.write(str(64 << 20))
        if os.path.exists(os.path.join(cg, "memory.swap.max")):
            with open(os.path.join(cg, "memory.swap.max"), "w") as f:
                f.write("0")
        # The shell moves itself into the new cgroup, then becomes oomdiag:
        # oomdiag reads the memory files of the cgroup it runs in.
        script = ('echo $$ > "$CG/cgroup.procs" && exec "$OOMDIAG" run --format json --report "$REPORT" '
                  '--facts "$FACTS" -- "$PYTHON" -c "$ALLOC"')
        env = dict(os.environ, CG=cg, OOMDIAG=os.path.abspath(args.oomdiag), REPORT=report, FACTS=facts,
                   PYTHON=sys.executable, ALLOC=ALLOC)
        t0 = time.time()
        p = subprocess.run(["sh", "-c", script], env=env, capture_output=True, timeout=120)
        took = time.time() - t0
        events = open(os.path.join(cg, "memory.events")).read()
    finally:
        for _ in range(50):
            try:
                os.rmdir(cg)
                break
            except OSError:
                time.sleep(0.1)
    with open(os.path.join(out, "transcript.txt"), "w") as f:
        f.write(f"exit status {p.returncode} after {took:.2f} s\n--- stdout\n{p.stdout.decode(errors='replace')}"
                f"--- stderr\n{p.stderr.decode(errors='replace')}--- {cg}/memory.events after\n{events}")
    print(open(os.path.join(out, "transcript.txt")).read())
    print("--- facts\n" + (open(facts).read() if os.path.exists(facts) else "(none)\n"))
    failures = []
    if p.returncode != 137:
        failures.append(f"exit status {p.returncode}, want 137 (SIGKILL from the OOM killer)")
    try:
        doc = json.load(open(report))
        diags = doc["jobs"][0]["diagnoses"]
    except (OSError, ValueError, KeyError, IndexError) as e:
        failures.append(f"no report: {e}")
        diags = []
    root = diags[0] if diags else {}
    if root.get("cause") != "host-oom-kill" or root.get("role") != "root":
        failures.append(f"root cause {root.get('cause')}, want host-oom-kill")
    if root.get("confidence") != "high":
        failures.append(f"confidence {root.get('confidence')}, want high (the cgroup's word)")
    cited = [e["text"] for e in root.get("evidence", []) if "memory.events oom_kill" in e["text"]]
    if not cited:
        failures.append("the diagnosis does not cite memory.events")
    print(json.dumps(root, indent=1)[:3000])
    for f in failures:
        print("FAIL", f)
    if not failures:
        print("PASS cgroup OOM kill diagnosed from memory.events:", cited[0])
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    if shutil.which("sh") is None:
        skip("no sh")
    main()
