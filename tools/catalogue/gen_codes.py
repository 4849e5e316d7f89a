#!/usr/bin/env python3
"""Writes rules/codes-cuda.json from the CUDA code catalogue.

The catalogue is data: the names and messages of every cudaError_t and
CUresult code as the libraries themselves return them
(tools/capture/captured/codes/code-tables.tsv, read on a GPU machine with
cudaGetErrorName/cudaGetErrorString and cuGetErrorName/cuGetErrorString),
and what each code means for a diagnosis (tools/catalogue/cuda-causes.tsv).
This script turns them into one signature per group of codes that share a
cause, role, confidence and flag. Each signature recognises a code three
ways, after any prefix:

  - its enum name anywhere on the line (cudaErrorMemoryAllocation,
    CUDA_ERROR_OUT_OF_MEMORY);
  - its message text (cudaGetErrorString) on a line that reports an error
    (error, failed, failure, exception, abort, assert or what() on it) and
    names CUDA (a `CUDA error`-like word, `[CUDA]`, a cuda*/cu* API name),
    after a delimiter (`: `, a quote, a bracket, ` - `, the API name);
  - its number where the line says it is a CUDA error number
    (`CUDA error 2`, `cudaMalloc returned error code 2`,
    `cuMemAlloc failed with error 2`, `error == cudaSuccess (2 vs. 0)`).

Samples are filled from real printf templates (cited in the file's
description) with the real names and messages. Run from the repository
root:  python3 tools/catalogue/gen_codes.py [--oomdiag build/oomdiag]
With --oomdiag it checks the result and lists, per signature, the groups no
sample captures as "unsampled".
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLE = os.path.join(ROOT, "tools/capture/captured/codes/code-tables.tsv")
CAUSES = os.path.join(ROOT, "tools/catalogue/cuda-causes.tsv")
OUT = os.path.join(ROOT, "rules/codes-cuda.json")

# group: (signature id suffix, cause, role, confidence, message field, flag field, title)
GROUPS = {
    "oom": ("oom", "gpu-oom", "root", "high", "raw_oom", None, "GPU memory could not be allocated"),
    "fault": ("fault", "illegal-address", "root", "high", "cuda_error", None, "a kernel accessed memory it does not own"),
    "fault-medium": ("fault-kernel", "illegal-address", "root", "medium", "cuda_error", None, "a kernel faulted (misaligned address, illegal instruction, stack, program counter)"),
    "fault-low": ("fault-launch", "illegal-address", "root", "low", "cuda_error", None, "a kernel crashed (unspecified launch failure: a fault, a watchdog or hardware)"),
    "fault-after": ("fault-prior", "illegal-address", "consequence", "low", "cuda_error", None, "an earlier kernel's failure reported again"),
    "assert": ("assert", "device-assert", "root", "medium", "cuda_error", None, "a device-side assert fired (the assertion lines before it say which)"),
    "hw": ("hardware", "gpu-hardware", "root", "high", "hw_error", None, "an uncorrectable ECC or NVLink error"),
    "hw-contained": ("hardware-contained", "gpu-hardware", "root", "medium", "hw_error", None, "a contained hardware error (or an invalid peer access over NVLink)"),
    "driver-old": ("driver-old", "driver", "root", "high", "driver_error", "driver_old", "the driver is older than the toolkit or PTX needs"),
    "driver-fabric": ("driver-fabric", "driver", "root", "high", "driver_error", "fabric_manager", "the system is not ready (NVSwitch fabric manager)"),
    "driver-nodevice": ("driver-no-device", "driver", "root", "high", "driver_error", "no_device", "no CUDA device is visible"),
    "driver-ordinal": ("driver-ordinal", "driver", "root", "medium", "driver_error", "no_device", "a device index beyond the visible devices"),
    "driver-busy": ("driver-busy", "driver", "root", "medium", "driver_error", "devices_busy", "the device is busy, unavailable or held exclusively"),
    "driver-arch": ("driver-arch", "driver", "root", "high", "driver_error", "no_kernel_image", "no kernel image for this GPU's architecture"),
    "driver-arch-function": ("driver-arch-function", "driver", "root", "medium", "driver_error", "no_kernel_image", "a device function with no code for this GPU (a build for other architectures)"),
    "driver-install": ("driver-install", "driver", "root", "medium", "driver_error", "no_driver", "CUDA's libraries are incomplete or broken (stub, JIT, licence)"),
    "driver-env": ("driver-environment", "driver", "root", "medium", "driver_error", None, "the machine's driver, MPS or set-up refused the work"),
    "driver-hang": ("driver-hang", "driver", "root", "medium", "driver_error", "gpu_hang", "a kernel ran past the display watchdog"),
    "driver-after": ("driver-after", "driver", "consequence", "medium", "driver_error", None, "a code that follows another failure (context destroyed, shutting down, unknown error)"),
    "usage": ("usage", "usage-error", "root", "medium", "usage_error", None, "the call was made with an invalid value, handle or state"),
    "usage-launch": ("usage-launch", "usage-error", "root", "medium", "usage_error", "launch_config", "a kernel launch configuration the GPU cannot run"),
}

# Lines that name a code without reporting a failure of this job.
QUIET = {"gpu-oom", "illegal-address", "device-assert"}

EXCLUDE = ["failed call to cuInit", "CUDA initialization: "]
# NCCL reports a failed CUDA call of its own as "Cuda failure [N] 'TEXT'": an
# NCCL failure (nccl.json) unless the text is memory, a fault or hardware.
NCCL_CUDA_FAILURE = r"Cuda failure (?:\d+ )?'"
EXCLUDE_BY_GROUP = {"oom": [r"\bon host: ", r"\bfrom device: ", r"CUDA(?:Runtime|Driver)Error: "], "usage": [NCCL_CUDA_FAILURE], "usage-launch": [NCCL_CUDA_FAILURE],
                    "driver-after": [NCCL_CUDA_FAILURE]}

FRAGMENTS = {
    # a word that says the line reports an error
    "errword": r"(?i:error|fail|exception|abort|assert|what\(\))",
    # the line names CUDA: a CUDA-error-like word, [CUDA], an API name, the gpuErrchk macro
    "ctx": r"(?:\b(?i:cuda)[\s_]*+(?i:error|failure|failed|runtime|driver|exception|check|assert|call|status)|\[CUDA\]|\bcu(?:da)?[A-Z][A-Za-z0-9_]*|\bGPUassert\b)",
    # what comes right before a message text
    "delim": r"(?:[:\]\)'\"=,>|(\[]|\s-|\bcu(?:da)?[A-Z][A-Za-z0-9_]*)\s*+",
    # what comes right before an error number
    "numctx": r"(?:\b(?i:cuda)[\s_]*+(?i:runtime[\s_]*+|driver[\s_]*+|api[\s_]*+)?(?i:error|failure)|\bcu(?:da)?[A-Z][A-Za-z0-9_]*[^:\n]{0,40}?\b(?i:error|failed|failure|returned)|\bcudaSuccess\b[^()\n]{0,24}\((?:0 vs\.\s*+)?)(?:[\s=:#(\[]|(?i:code|number|status|with|error)\b){0,12}",
    # what may follow an error number
    "numend": r"(?![\w.]|\s*+(?i:GPUs?\b|devices?\b|[KMGT]i?B\b|bytes\b|%))",
}

# Literals of the numbered form (a line with a message text contains the text).
# Chosen so that their first bytes are rare in ordinary logs (the prefilter
# hashes a literal's first windows): "rned error" for "returned error".
NUM_LITERALS = ["CUDA error", "CUDA Error", "Cuda error", "Cuda Error", "cuda error", "CUDA ERROR",
                "untime Error", "untime error", "cudaSuccess", "failed with error",
                "rned error", "CUDA_ERROR", "Cuda failure", "CUDA failure"]

# Literals of the text form: the error-context words a line that carries a
# message text also carries. The texts themselves are literals only for the
# groups below (so that "GPUassert: an illegal memory access ..." needs no context
# word): a hundred English phrases as literals would send ordinary lines to
# the prefilter's verification (measured: +12% instructions on the benchmark
# log), for codes that are rare.
CTX_LITERALS = ["[CUDA]", "GPUassert", "CUDA_CHECK", "CUDA Exception", "CUDA exception", "CUDA Runtime", "CUDA runtime",
                "cuda runtime", "CUDA Driver", "CUDA driver error"]
TEXT_LITERAL_GROUPS = {"fault", "assert"}
# "out of memory" is not a literal: PyTorch's own OOM line ("CUDA out of
# memory. Tried to allocate ...", the commonest line of all) would run the
# catalogue's pattern for nothing (measured: +4.6 M instructions, +1.4 ms on a
# 100 KiB log with one such line). A raw allocation's failure is found through
# the error-context words above or the allocation call it names.
OOM_LITERALS = ["cudaMalloc", "cuMemAlloc", "cuMemCreate", "cudaGetLastError"]

# Real printf templates the samples are filled from.
SAMPLE_SOURCES = (
    "CuPy cupy_backends/cuda/api/runtime.pyx and driver.pyx ('CUDARuntimeError: NAME: STRING', 'CUDADriverError: NAME: STRING'); "
    "PyTorch c10/cuda/CUDAException.cpp ('CUDA error: STRING', 'Search for `NAME'...'); "
    "Caffe's CUDA_CHECK (CHECK_EQ(error, cudaSuccess) << \" \" << cudaGetErrorString(error), as in houqb/DSS#25: "
    "'Check failed: error == cudaSuccess (2 vs. 0)  out of memory'); "
    "the check macro of bcumming/summer-school cuda/check.h ('CUDA error %d \"%s\" at %s:%d'); "
    "lloydbrownjr/DRT2 src/cuda_errors.h, a cut-down helper_cuda.h ('CUDA error = %u at %s:%d '%s''); "
    "numba numba/cuda/cudadrv/driver.py (CudaAPIError '[%d] Call to %s results in %s'); "
    "Triton's driver ('Triton Error [CUDA]: STRING', triton-lang/triton#1302, lucidrains/titans-pytorch#50)."
)


def load_table():
    rt, drv = {}, {}
    with open(TABLE, encoding="utf-8") as f:
        for row in csv.reader(f, delimiter="\t"):
            api, num, name = row[0], int(row[1]), row[2]
            text = row[3] if len(row) > 3 else ""
            if "unrecognized error code" in text or not name or name.startswith("unrecognized"):
                continue
            if api == "rt":
                rt[num] = (name, text)
            elif api == "drv":
                drv[num] = (name, text)
    return rt, drv


def load_causes():
    rows = []
    with open(CAUSES, encoding="utf-8") as f:
        lines = [l for l in f if not l.startswith("#")]
    for r in csv.DictReader(lines, delimiter="\t"):
        legacy = [int(x) for x in (r.get("legacy") or "").split(",") if x.strip()]
        rows.append((int(r["number"]), r["group"].strip(), legacy))
    return rows


def trie(words):
    """A regex alternation of WORDS that shares their prefixes (a trie)."""
    root = {}
    for w in sorted(set(words)):
        node = root
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node):
        end = "" in node
        alts = [esc(ch) + emit(child) for ch, child in sorted(node.items()) if ch]
        if not alts:
            return ""
        if len(alts) == 1 and not end:
            return alts[0]
        body = "(?:" + "|".join(alts) + ")"
        return body + "?" if end else body

    return emit(root) if root else "(?!)"


def esc(s):
    out = re.escape(s)
    for c in " _-/',:<>\"=#!%&~`@;":
        out = out.replace("\\" + c, c)
    return out


def text_alternation(texts, all_texts):
    """TEXTS as one prefix-sharing alternation (a trie: a line's position
    costs one branch per first letter, not one per text), each text kept
    from matching the start of a longer catalogue text that extends it
    (unspecified launch failure / ... in prior launch)."""
    root = {}
    for t in sorted(set(texts)):
        node = root
        for ch in t:
            node = node.setdefault(ch, {})
        longer = sorted({o[len(t):] for o in all_texts if o != t and o.startswith(t)})
        node[""] = "(?!" + "|".join(esc(x) for x in longer) + ")" if longer else ""

    def emit(node):
        alts = [esc(ch) + emit(child) for ch, child in sorted((k, v) for k, v in node.items() if k)]
        end = node.get("")
        if end is not None:
            alts.append(end)
        if len(alts) == 1:
            return alts[0]
        return "(?:" + "|".join(alts) + ")"

    return emit(root)


def cut_texts(texts, all_texts):
    """Texts cut short where the line ends (a one-line quote of a longer
    message, a terminal's cut): each leading run of at least three words and
    16 characters that no other catalogue text starts with."""
    cuts = []
    for t in sorted(set(texts)):
        words = t.split(" ")
        for k in range(3, len(words)):
            p = " ".join(words[:k])
            if len(p) < 16 or p in all_texts:
                continue
            if any(o != t and o.startswith(p) for o in all_texts):
                continue
            cuts.append(p)
    return cuts


def build():
    rt, drv = load_table()
    causes = load_causes()
    modern = {n for n, _, _ in causes}
    all_texts = {t for _, t in list(rt.values()) + list(drv.values())}
    members = {}
    for num, group, legacy in causes:
        if group == "none":
            continue
        if group not in GROUPS:
            sys.exit(f"gen_codes: unknown group {group} for code {num}")
        m = members.setdefault(group, {"codes": [], "legacy": []})
        m["codes"].append(num)
        # a legacy number that is a modern code's number now is ambiguous: left out
        m["legacy"] += [x for x in legacy if x not in modern]
    sigs = []
    for group, spec in GROUPS.items():
        if group not in members:
            continue
        suffix, cause, role, conf, msg, flag, title = spec
        codes = sorted(members[group]["codes"])
        names, texts, desc = [], [], []
        for n in codes:
            parts = []
            if n in rt:
                names.append(rt[n][0])
                texts.append(rt[n][1])
                parts.append(rt[n][0])
            if n in drv:
                names.append(drv[n][0])
                texts.append(drv[n][1])
                parts.append(drv[n][0])
            text = (rt.get(n) or drv.get(n))[1]
            desc.append(f"{' / '.join(parts)} ({n}): \"{text}\"")
        numbers = [str(n) for n in codes] + [str(n) for n in sorted(set(members[group]["legacy"]))]
        excl = EXCLUDE + EXCLUDE_BY_GROUP.get(group, [])
        head = "(?J)^(?!.*(?:" + "|".join(excl) + "))"
        # Every alternative ends in \K: the match is empty, so where a rule
        # written for one program's format matches the same line with as
        # many fields (PyTorch's 'CUDA error: ...', CuPy's, TensorRT's), that
        # rule wins the tie (docs/rules.md: the longer match) and keeps its
        # framework and fields; the catalogue decides only where no such
        # rule does. For causes whose program rules capture nothing from the
        # message (QUIET), the text and number forms capture nothing either.
        quiet = cause in QUIET
        tm = (lambda inner: f"(?:{inner})") if quiet else (lambda inner: f"(?<{msg}>{inner})")
        nm = f"(?<cuda_error_name>{trie(names)})" if quiet else f"(?<{msg}>{trie(names)})"
        name_alt = rf".*?\b{nm}\b\K"
        cuts = cut_texts(texts, all_texts)
        texts_rx = text_alternation(texts, all_texts) + r"(?![\w-])"
        if cuts:
            texts_rx = "(?:" + texts_rx + "|(?:" + "|".join(esc(c) for c in cuts) + r")\s*+$)"
        text_alt = rf"(?=.*?(?&errword))(?=.*?(?&ctx)).*?(?&delim){tm(texts_rx)}\K"
        num_alt = rf".*?{tm('(?&numctx)(?:' + '|'.join(sorted(numbers, key=lambda x: (-len(x), x))) + ')')}(?&numend)\K"
        body = f"(?:{name_alt}|{text_alt}|{num_alt})"
        pattern = head + (f"(?<{flag}>{body})" if flag else body)
        literals = sorted(set(["cudaError", "CUDA_ERROR_"] + NUM_LITERALS + CTX_LITERALS
                              + (texts if group in TEXT_LITERAL_GROUPS else [])
                              + (OOM_LITERALS if group == "oom" else [])))
        legacy_note = ""
        if members[group]["legacy"]:
            legacy_note = " Numbers before CUDA 10.1 also matched in the numbered form: " + ", ".join(str(x) for x in sorted(set(members[group]["legacy"]))) + "."
        sig = {
            "id": f"cuda-catalogue-{suffix}",
            "cause": cause,
            "framework": "cuda",
            "role": role,
            "confidence": conf,
            "description": f"CUDA runtime and driver codes meaning {title}, by enum name, by message text after any prefix on a line that reports a CUDA error (also cut short at the line's end, three words or more), or by number where the line says it is a CUDA error number. Generated by tools/catalogue/gen_codes.py from tools/catalogue/cuda-causes.tsv. Codes: " + "; ".join(desc) + "." + legacy_note,
            "literal": literals,
            "pattern": pattern,
            "samples": {"match": samples(group, codes, rt, drv, msg, flag)},
        }
        sigs.append(sig)
    return sigs


def with_fields(line, field, value):
    return {"line": line, "fields": {field: value}} if field else line


def samples(group, codes, rt, drv, msg, flag):
    quiet = GROUPS[group][1] in QUIET
    nf = "cuda_error_name" if quiet else msg
    tf = None if quiet else msg
    out = []
    first = codes[:2]
    for n in first:
        if n in rt:
            name, text = rt[n]
            out.append({"line": f"Search for `{name}' in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html for more information.", "fields": {nf: name}})
            if group != "oom":
                out.append(f"cupy_backends.cuda.api.runtime.CUDARuntimeError: {name}: {text}")
            out.append(with_fields(f"torch.AcceleratorError: CUDA error: {text}", tf, text))
        if n in drv:
            name, text = drv[n]
            out.append({"line": f"numba.cuda.cudadrv.driver.CudaAPIError: [{n}] Call to cuCtxSynchronize results in {name}", "fields": {nf: name}})
            if n not in rt:
                out.append(with_fields(f"RuntimeError: Triton Error [CUDA]: {text}", tf, text))
    if group == "fault":
        # as the seed article 001_f9a86a03cda1eda8 quotes it, cut short
        out.append("RuntimeError: CUDA error: an illegal memory access")
    n = codes[0]
    name, text = rt.get(n) or drv.get(n)
    out.append(with_fields(f"F0304 14:26:21.611594  4889 syncedmem.cpp:71] Check failed: error == cudaSuccess ({n} vs. 0)  {text}", tf, text))
    out.append({"line": f"CUDA error {n} \"{text}\" at kernels.cu:45"})
    out.append(with_fields(f"CUDA error = {n} at main.cu:88 'cudaDeviceSynchronize()' ", tf, f"CUDA error = {n}"))
    return out


def write(sigs, unsampled=None):
    for s in sigs:
        if unsampled and unsampled.get(s["id"]):
            s["unsampled"] = sorted(unsampled[s["id"]])
    doc = {
        "$schema": "../docs/rules.schema.json",
        "oomdiag_rules": 1,
        "ruleset_version": "2026.11.29",
        "description": "Catalogue of the CUDA runtime (cudaError_t, driver_types.h) and driver API (CUresult, cuda.h) codes, one signature per cause, role, confidence and flag: each code by its enum name, its message text and its number. GENERATED by tools/catalogue/gen_codes.py from tools/capture/captured/codes/code-tables.tsv (cudaGetErrorName/String, cuGetErrorName/String of libcudart 13 and libcuda 580 on an H200) and tools/catalogue/cuda-causes.tsv (what each code means); edit those and run it again. Samples fill real templates: " + SAMPLE_SOURCES,
        "fragments": FRAGMENTS,
        "signatures": sigs,
    }
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=2, ensure_ascii=False)
        f.write("\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oomdiag", help="check the result with this binary and fill 'unsampled'")
    a = ap.parse_args()
    sigs = build()
    write(sigs)
    if a.oomdiag:
        r = subprocess.run([a.oomdiag, "--check-rules", "--no-builtin-rules", OUT, os.path.join(ROOT, "rules/fields.json"), os.path.join(ROOT, "rules/cause-usage-error.json")], capture_output=True, text=True)
        un = {}
        for m in re.finditer(r'named group "(\w+)" of signature "?([\w.-]+)"? is captured by none', r.stdout + r.stderr):
            un.setdefault(m.group(2), set()).add(m.group(1))
        if un:
            write(build(), un)


if __name__ == "__main__":
    main()
