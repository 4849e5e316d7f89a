#!/usr/bin/env python3
"""The gpu-oom variant boundaries and the evidence-chosen first fix, with
the shipped rules.  Each case is a PyTorch 2.x allocator message (the exact
wording of c10/cuda/CUDACachingAllocator.cpp, as captured on an H200 in
fixtures/) with numbers placed on either side of a threshold that
rules/cause-gpu-oom.json documents (docs/verification-gpu.md, "Variant
thresholds"), optionally after progress lines.  Some cases hold readings that cannot be
right (a process figure below what PyTorch holds or above the card, PyTorch
holding more than the card): their verdict must follow PyTorch's own figures.

  variants.py --oomdiag build/oomdiag
"""
import argparse
import json
import subprocess
import sys

MSG = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {r}. GPU 0 has a total capacity of "
       "{t} of which {f} is free. Including non-PyTorch memory, this process has {p} memory in use. Of the "
       "allocated memory {a} is allocated by PyTorch, and {u} is reserved by PyTorch but unallocated. If "
       "reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True "
       "to avoid fragmentation.  See documentation for Memory Management  "
       "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)")


# Without the "this process" clause: Windows and ROCm, where the driver gives
# PyTorch no per-process figure.
MSG_NO_PROCESS = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {r}. GPU 0 has a total capacity of "
                  "{t} of which {f} is free. Of the allocated memory {a} is allocated by PyTorch, and {u} is reserved "
                  "by PyTorch but unallocated. If reserved but unallocated memory is large try setting "
                  "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for "
                  "Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)")


def oom(r, t, f, p, a, u):
    if p is None:
        return MSG_NO_PROCESS.format(r=r, t=t, f=f, a=a, u=u)
    return MSG.format(r=r, t=t, f=f, p=p, a=a, u=u)


# (name, log lines, expected variant, expected first remediation step id)
CASES = [
    # fragmentation: unallocated >= request and >= 4% of the card
    ("frag-at-4-percent", [oom("4.00 GiB", "100.00 GiB", "1.00 GiB", "99.00 GiB", "95.00 GiB", "4.00 GiB")],
     "fragmentation", "expandable-segments"),
    ("frag-below-4-percent", [oom("2.00 GiB", "100.00 GiB", "1.00 GiB", "99.00 GiB", "95.01 GiB", "3.99 GiB")],
     "capacity", None),
    ("frag-unallocated-below-request", [oom("10.01 GiB", "100.00 GiB", "1.00 GiB", "99.00 GiB", "89.00 GiB",
                                            "10.00 GiB")],
     "capacity", None),
    ("frag-unallocated-equals-request", [oom("10.00 GiB", "100.00 GiB", "1.00 GiB", "99.00 GiB", "89.00 GiB",
                                             "10.00 GiB")],
     "fragmentation", "expandable-segments"),
    # other-process: memory this process does not account for >= 25% of the card
    ("other-at-25-percent", [oom("2.00 GiB", "100.00 GiB", "1.00 GiB", "74.00 GiB", "72.00 GiB", "1.00 GiB")],
     "other-process", "find-holder"),
    ("other-below-25-percent", [oom("2.00 GiB", "100.00 GiB", "1.00 GiB", "74.01 GiB", "72.00 GiB", "1.00 GiB")],
     "capacity", None),
    ("other-ghost-card-full", [oom("2.00 GiB", "100.00 GiB", "512.00 MiB", "3.00 GiB", "1.50 GiB", "512.00 MiB")],
     "other-process", "find-holder"),
    # capacity: the first fix depends on how far the job got
    ("capacity-first-step", ["step 0/100 loss 9.21", oom("20.00 GiB", "100.00 GiB", "1.00 GiB", "99.00 GiB",
                                                         "97.00 GiB", "1.00 GiB")],
     "capacity", "smaller-batch"),
    ("capacity-after-40-steps", ["step 39/100 loss 2.10", "step 40/100 loss 2.07",
                                 oom("20.00 GiB", "100.00 GiB", "1.00 GiB", "99.00 GiB", "97.00 GiB", "1.00 GiB")],
     "capacity", "leak-accumulated-graph"),
    ("capacity-oversized-request", [oom("256.00 GiB", "100.00 GiB", "90.00 GiB", "9.00 GiB", "8.00 GiB",
                                        "512.00 MiB")],
     "capacity", "oversized-request"),
    # capacity's first fix is capacity's: slack above the request but below 4% of the card is no reason to put
    # expandable segments first (pytorch/pytorch#16417: 194.87 MiB unallocated of 23.65 GiB, 20 MiB requested)
    ("capacity-slack-above-request", [oom("20.00 MiB", "23.65 GiB", "11.06 MiB", "23.60 GiB", "22.90 GiB",
                                          "194.87 MiB")],
     "capacity", "smaller-batch"),
    # impossible readings: "this process has 0 bytes" while PyTorch holds 22.41 GiB of 23.43 GiB (a container hides
    # NVML's process data) is no evidence of another process; PyTorch's own figures decide
    ("impossible-zero-process", [oom("128.00 MiB", "23.43 GiB", "89.00 MiB", "0 bytes", "22.41 GiB", "312.00 MiB")],
     "capacity", "smaller-batch"),
    ("impossible-process-below-allocated", [oom("128.00 MiB", "23.43 GiB", "89.00 MiB", "22.40 GiB", "22.41 GiB",
                                                "312.00 MiB")],
     "capacity", "smaller-batch"),
    # Windows without per-process data: "this process has 17179869184.00 GiB" on a 6 GiB card
    # (facebookresearch/seamless_communication#341), more than the card, equally no reading
    ("impossible-process-above-card", [oom("318.00 MiB", "6.00 GiB", "0 bytes", "17179869184.00 GiB", "5.00 GiB",
                                           "271.88 MiB")],
     "capacity", "smaller-batch"),
    ("zero-process-others-by-pytorch-figures", [oom("2.00 GiB", "100.00 GiB", "1.00 GiB", "0 bytes", "50.00 GiB",
                                                    "1.00 GiB")],
     "other-process", "find-holder"),
    # more allocated than the card has (Windows WDDM spills into shared memory): capacity, not fragmentation;
    # allocated + unallocated equal to the card is still on the card
    ("wddm-overcommit", [oom("14.00 MiB", "4.00 GiB", "0 bytes", None, "6.97 GiB", "184.73 MiB")],
     "capacity", "smaller-batch"),
    ("wddm-reserved-fills-card", [oom("5.00 GiB", "100.00 GiB", "0 bytes", None, "90.00 GiB", "10.00 GiB")],
     "fragmentation", "expandable-segments"),
    ("wddm-reserved-beyond-card", [oom("5.00 GiB", "100.00 GiB", "0 bytes", None, "90.01 GiB", "10.00 GiB")],
     "capacity", "smaller-batch"),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oomdiag", required=True)
    args = ap.parse_args()
    failures = 0
    for name, lines, variant, first in CASES:
        p = subprocess.run([args.oomdiag, "--format", "json"], input="\n".join(lines) + "\n",
                           capture_output=True, text=True, timeout=30)
        d = json.loads(p.stdout)["jobs"][0]["diagnoses"]
        got_variant = d[0]["variant"] if d else None
        got_first = d[0]["remediation"][0]["id"] if d and d[0]["remediation"] else None
        ok = p.returncode == 0 and d and d[0]["cause"] == "gpu-oom" and got_variant == variant and (
            first is None or got_first == first)
        if not ok:
            failures += 1
            print(f"FAIL {name}: variant {got_variant} (want {variant}), first step {got_first} (want {first})")
    print(f"variants: {len(CASES) - failures}/{len(CASES)} boundary cases as documented")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
