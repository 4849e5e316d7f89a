#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz harnesses, deterministically:

  tests/fuzz/corpus/fuzz_rules/   rules/*.json, the test rule files, and
                                  small hand-made hostile rule files
  tests/fuzz/corpus/fuzz_reader/  fixtures (trimmed), line-ending oddities
                                  and gzip files (good, multi-member,
                                  truncated, corrupt, a 1 MiB+ line)
  tests/fuzz/corpus/fuzz_scan/    a dozen fixtures (trimmed to 16 KiB),
                                  hostile lines, gzip, and inputs that
                                  once crashed (regression-*)

Inputs the fuzzers found (crashes, leaks, hangs once fixed) are kept as
found-* files: this script leaves them alone.  Run from anywhere:
python3 tests/fuzz/make_corpus.py.  It rewrites everything else; what
libFuzzer finds during a run is not kept here (.ci/fuzz fuzzes a copy).
"""
import glob
import gzip
import io
import json
import os
import random

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "tests", "fuzz", "corpus")
MAX = 16 * 1024

OOM = (b"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
       b"capacity of 79.15 GiB of which 1.06 GiB is free. Of the allocated memory 74.33 GiB is allocated "
       b"by PyTorch, and 3.12 GiB is reserved by PyTorch but unallocated.")


def gz(data, mtime=0):
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=mtime, filename="") as f:
        f.write(data)
    return buf.getvalue()


def trim(data):
    """The last MAX bytes, from a line start: the end of a log says most."""
    if len(data) <= MAX:
        return data
    tail = data[-MAX:]
    nl = tail.find(b"\n")
    return tail[nl + 1:] if 0 <= nl < len(tail) - 1 else tail


def write(sub, name, data):
    d = os.path.join(OUT, sub)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


# Twelve fixtures of different causes and shapes (multi-rank, dmesg,
# progress bars, container logs, no failure at all).
FIXTURES = [
    "pytorch-oom-reserved-detectron2-frag.log",
    "pytorch-oom-current-rank11-multinode-frag.log",
    "nccl-timeout-broadcast-2rank-deepspeed.log",
    "torchrun-sigkill-rank4-host-oom.log",
    "host-oom-dmesg-python-killed-qaconv.log",
    "tf-oom-bfc-k40c-other-process.log",
    "jax-oom-xlaruntimeerror-lsf-v100.log",
    "device-assert-nll-pippy-rank15-terminate.log",
    "gpu-xid-43-31-mmu-fault-faulty-device.log",
    "k8s-oomkilled-describe-pod-speech.log",
    "vllm-startup-free-memory-other-process.log",
    "none-clean-jax-train-lsf.log",
]

# A line longer than the reader's 1 MiB cap whose end lies in the same
# buffer fill, with an escape sequence: it overflowed the scanner's
# escape-stripping buffer (fixed in src/reader.c).
LONG_ESC = b"x\n\x1b[0m" + b"a" * (1024 * 1024 + 50000) + b"\nstep 5\n" + OOM + b"\n"


def scan_seeds():
    for name in FIXTURES:
        path = os.path.join(ROOT, "fixtures", name)
        if os.path.exists(path):
            write("fuzz_scan", name, trim(read(path)))
    write("fuzz_scan", "hostile-escapes.log",
          b"\x1b]0;pwned\x07\x1b[2J\x1b[31m" + OOM + b"\x1b[0m\n"
          b"\x1bP1$r\x1b\\FUZZERR: \x1b]8;;http://x\x07link\x1b]8;;\x07 \x9b2J \xc2\x9b2J\n")
    write("fuzz_scan", "hostile-utf8.log",
          b"FUZZERR rank 3: caf\xe9 \xff\xfe \xed\xa0\x80 \xf4\x90\x80\x80 \xc0\xaf \x01\x08\x7f end\n"
          + OOM.replace(b"GiB. GPU", b"GiB\xff. GPU") + b"\n")
    write("fuzz_scan", "hostile-nul.log", b"\x00\x00" + OOM + b"\n\x00FUZZERR: a\x00b\n")
    # Real fixtures encoded as PowerShell, docker and containerd write them
    # (tests/cli/data/encoded/make.py).
    encoded = os.path.join(ROOT, "tests", "cli", "data", "encoded")
    for name in sorted(os.listdir(encoded)):
        if name.endswith(".log"):
            write("fuzz_scan", "encoded-" + name, read(os.path.join(encoded, name)))
    write("fuzz_scan", "hostile-progress-cr.log",
          b"".join(b"step %d loss 1.0\r" % i for i in range(50)) + b"\n" + OOM + b"\r\n")
    write("fuzz_scan", "fuzz-rules-all.log",
          b"[rank1]: step 3\n"
          b"out of memory. Tried to allocate 20.5 GiB; 1.5 GiB free; 30 GiB reserved msg=boom\n"
          b"OOM when allocating TENSOR SHAPE[32,1024,1024] and type fuzz32\n"
          b"[Rank 2] Watchdog timeout after 600000\n"
          b"[rank0]: FUZZERR rank 7: something broke\n"
          b"RuntimeError: CUDA error: an illegal memory access 12 MB\n"
          b"Killed process 1234 (python3)\n"
          b"hint: batch\n")
    write("fuzz_scan", "many-ranks.log",
          b"".join(b"[Rank %d] Watchdog timeout after %d\n" % (i, i * 1000) for i in range(40)))
    write("fuzz_scan", "oom.log.gz", gz(b"step 1\n" + OOM + b"\n"))
    # A value longer than the classifier's 255-byte field buffer, with a
    # two-byte character across the cut: the summary held half of it
    # (fixed in src/template.c).
    write("fuzz_scan", "regression-template-utf8-cut.log",
          b"FUZZERR: " + b"a" * 254 + "\u00e9\u00e9".encode() + b"\nCUDA error: x\n")
    # Raw bytes captured into a string field reached the summary and the
    # JSON "fields" (fixed in src/fields.c).
    write("fuzz_scan", "regression-field-raw-bytes.log",
          b"out of memory. Tried to allocate 3 GiB; 1 GiB free msg=\x1b]0;t\x07\xff\n"
          b"[rank2]: FUZZERR: \xc2\x9b\x01hello\xe9\nstep 4\n")
    write("fuzz_scan", "regression-long-line-escape.log.gz", gz(LONG_ESC))


def reader_seeds():
    for name in FIXTURES[:6]:
        path = os.path.join(ROOT, "fixtures", name)
        if os.path.exists(path):
            write("fuzz_reader", name, trim(read(path)))
    write("fuzz_reader", "empty", b"")
    write("fuzz_reader", "crlf.log", b"one\r\ntwo\r\n\r\nthree")
    write("fuzz_reader", "cr-progress.log", b"10%\r20%\r30%\r\n" * 3 + b"tail\r")
    write("fuzz_reader", "no-final-newline.log", b"a\nb\nc")
    write("fuzz_reader", "nul.bin", b"\x00\x01\x02ELF\x00\n\x00" * 20)
    write("fuzz_reader", "gzip-magic-only", b"\x1f\x8b")
    # Decoded inputs: UTF-16 with and without BOM, odd length, lone
    # surrogates; a NUL hole; docker JSON-lines and CRI container logs.
    u16 = "step 1 \u2588\r\ntorch.OutOfMemoryError: CUDA out of memory \U0001F600\r\n"
    write("fuzz_reader", "utf16le-bom.log", b"\xff\xfe" + u16.encode("utf-16-le"))
    write("fuzz_reader", "utf16be.log", u16.encode("utf-16-be"))
    write("fuzz_reader", "utf16le-odd.log", b"\xff\xfe" + u16.encode("utf-16-le") + b"x\x00\x3d\xd8y")
    write("fuzz_reader", "nul-hole.log", b"step 1\nstep 2 lo" + b"\x00" * 9000 + b"ss\nKilled\n")
    write("fuzz_reader", "docker-json.log",
          b'{"log":"Traceback (most recent call last):\\n","stream":"stderr","time":"2026-01-01T00:00:00.1Z"}\n'
          b'{"log":"\\u001b[31mx\\u003c\\ud83d\\ude00 \\\\ \\"q\\" part ","stream":"stderr","time":"2026-01-01T00:00:00.2Z"}\n'
          b'{"log":"two\\r\\n","stream":"stdout","attrs":{"a":"b"},"time":"2026-01-01T00:00:00.3Z"}\n'
          b'{"log":"cut by a cra')
    write("fuzz_reader", "cri.log",
          b"2026-01-01T00:00:00.123456789Z stdout F step 1\n"
          b"2026-01-01T00:00:01+02:00 stderr P torch.OutOfMemoryError: CUDA\n"
          b"2026-01-01T00:00:02Z stderr F  out of memory\r10%\r\n"
          b"not a record\n"
          b"2026-01-01T00:00:03Z stderr P Killed")
    plain = read(os.path.join(ROOT, "fixtures", FIXTURES[0]))
    good = gz(plain)
    write("fuzz_reader", "good.log.gz", good)
    write("fuzz_reader", "multi-member.log.gz", gz(b"first member\n") + gz(b"second\r\nmember\n"))
    write("fuzz_reader", "truncated.log.gz", good[: len(good) // 2])
    corrupt = bytearray(good)
    corrupt[len(corrupt) // 2] ^= 0x55
    write("fuzz_reader", "corrupt.log.gz", bytes(corrupt))
    write("fuzz_reader", "trailing-garbage.log.gz", gz(b"ok\n") + b"not gzip at all\n")
    write("fuzz_reader", "empty.gz", gz(b""))
    write("fuzz_reader", "regression-long-line-escape.log.gz", gz(LONG_ESC))
    write("fuzz_reader", "long-line-no-newline.gz", gz(b"b" * (1024 * 1024 + 300000)))
    # Incompressible, so the .gz is over 64 KiB: its first read (up to
    # 128 KiB) was copied into a 64 KiB inflate buffer (fixed in
    # src/reader.c).
    rnd = random.Random(1)
    noise = bytes(rnd.getrandbits(8) for _ in range(70 * 1024))
    write("fuzz_reader", "regression-gzip-first-read-128k.log.gz", gz(noise))


def rules_seeds():
    files = sorted(glob.glob(os.path.join(ROOT, "rules", "*.json")))
    files += sorted(glob.glob(os.path.join(ROOT, "tests", "data", "rules", "*.json")))
    files += sorted(glob.glob(os.path.join(ROOT, "tests", "cli", "data", "*.json")))
    for path in files:
        rel = os.path.relpath(path, ROOT).replace(os.sep, "-")
        write("fuzz_rules", rel, read(path))
    write("fuzz_rules", "deep-nesting.json", b"[" * 1100 + b"]" * 1100)
    write("fuzz_rules", "deep-nesting-unclosed.json", b'{"oomdiag_rules": 1, "causes": ' + b"[" * 3000)
    write("fuzz_rules", "not-an-object.json", b'["oomdiag_rules", 1]')
    write("fuzz_rules", "wrong-types.json",
          b'{"oomdiag_rules": 1, "ruleset_version": 7, "causes": {"id": 1}, "signatures": ['
          b'{"id": "X Y", "cause": 3, "pattern": ["a"], "literal": [1], "caseless": "yes",'
          b' "role": "boss", "confidence": 9, "samples": {"match": "line"}}],'
          b' "ranks": [{"id": "r", "from": "air", "pattern": "(?<rank>\\\\d+)(?<x>y)"}],'
          b' "dtypes": {"f": -1, "g": "2"}}')
    write("fuzz_rules", "unknown-keys.json",
          b'{"oomdiag_rules": 1, "extra": true, "causes": [{"id": "c", "title": "t", "explanation": "e",'
          b' "remediation": [{"id": "s", "action": "a", "colour": "red"}], "bogus": 1}],'
          b' "signatures": [{"id": "s", "cause": "c", "pattern": "hello world", "samples":'
          b' {"match": [{"line": "hello world", "fields": {}, "why": 1}], "maybe": []}, "priority": 3}]}')
    write("fuzz_rules", "catastrophic.json",
          b'{"oomdiag_rules": 1, "causes": [{"id": "c", "title": "t", "explanation": "e",'
          b' "remediation": [{"id": "s", "action": "a"}]}], "signatures": [{"id": "evil", "cause": "c",'
          b' "pattern": "(a+)+$", "literal": "aaaa", "samples": {"match": ["aaaa"],'
          b' "no_match": ["aaaaaaaaaaaaaaaaaaaaaaaaaaaaab"]}}]}')
    write("fuzz_rules", "conditions.json",
          b'{"oomdiag_rules": 1, "causes": [{"id": "c", "title": "t", "explanation": "e",'
          b' "summaries": [{"when": "!(a >= 1 GiB && (b / 0 > 2 || !has(c))) || d == \\"x\\"", "text": "{a} {{b}}"}],'
          b' "variants": [{"id": "v", "when": "((((((x))))))", "first": ["s"], "summaries": [{"text": "{x}"}]}],'
          b' "remediation": [{"id": "s", "action": "a {x}", "detail": "{y}", "when": "1 < 2",'
          b' "first_when": "last_step <= 1"}]}],'
          b' "signatures": [{"id": "s", "cause": "c", "pattern": "^(?<x>\\\\d+) (?<a_bytes>\\\\S+)$",'
          b' "literal": "0 ", "samples": {"match": [{"line": "10 2 GiB", "fields": {"x": 10, "a_bytes": 2147483648}}]}}]}')
    write("fuzz_rules", "nul-byte.json", b'{"oomdiag_rules": 1,\n "x": "\x00"}')
    # A sample object without "line" but with "fields" leaked its fields
    # (fixed in src/rulefile.c); found by fuzz_rules in its first minute.
    write("fuzz_rules", "regression-sample-fields-leak.json",
          b'{"oomdiag_rules": 1,\n'
          b' "causes": [{"id": "c", "title": "t", "explanation": "e", "remediation": [{"id": "s", "action": "a"}]}],\n'
          b' "signatures": [{"id": "s", "cause": "c", "pattern": "hello world",\n'
          b'   "samples": {"match": [{"fields": {"x": 1}}, {"line": 7, "fields": {"y": "z"}}, "hello world"]}}]}\n')


def rule_strings(keys):
    """Every string value under KEYS in rules/*.json (conditions, templates)."""
    found = []

    def walk(node):
        if isinstance(node, dict):
            for k, v in node.items():
                if k in keys and isinstance(v, str):
                    found.append(v)
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    for path in sorted(glob.glob(os.path.join(ROOT, "rules", "*.json"))):
        walk(json.loads(read(path)))
    return sorted(set(found))


def decoder_seeds():
    """Seeds of the harnesses of single decoders (issue 22): a few header
    bytes that pick the set-up, then real input."""
    comp = os.path.join(ROOT, "tests", "cli", "data", "compressed")
    enc = os.path.join(ROOT, "tests", "cli", "data", "encoded")
    text = b"step 1\n" + OOM + b"\n"
    good = gz(text)
    streams = {
        "good.gz": good, "multi-member.gz": gz(b"first\n") + gz(b"second\n"), "truncated.gz": good[: len(good) // 2],
        "trailing-garbage.gz": gz(b"ok\n") + b"not gzip\n", "empty.gz": gz(b""),
    }
    for name in sorted(os.listdir(comp)):
        streams[name] = read(os.path.join(comp, name))
    for name in ("oom.log.xz", "oom.log.zst", "oom.log.bz2"):
        streams["twice-" + name] = streams[name] * 2
    corrupt = bytearray(good)
    corrupt[len(corrupt) // 2] ^= 0x55
    streams["corrupt.gz"] = bytes(corrupt)
    for name, data in sorted(streams.items()):
        write("fuzz_decompress", name, b"\x00\x07\x0d" + data)  # sniffed, pieces of 8, room 14
        write("fuzz_decompress", "bytewise-" + name, b"\x00\x00\x00" + data)  # 1-byte pieces and room

    u16 = "step 1\r\n" + OOM.decode() + "\r\n\U0001f600 \u4e2d\u6587\n"
    write("fuzz_utf16", "le.txt", b"\x00\x05\x00" + u16.encode("utf-16-le"))
    write("fuzz_utf16", "be.txt", b"\x01\x02\x09" + u16.encode("utf-16-be"))
    write("fuzz_utf16", "lone-surrogates.txt", b"\x00\x00\x00" + "a".encode("utf-16-le") + b"\x3d\xd8x\x00\x00\xdcy")
    write("fuzz_utf16", "odd.txt", b"\x00\x03\x01" + u16.encode("utf-16-le") + b"z")
    write("fuzz_utf16", "powershell.txt", b"\x00\x1f\x3f" + read(os.path.join(enc, "hf-trainer-oom.utf16le-bom.log"))[:4096])

    docker = read(os.path.join(enc, "pytorch-oom-forward-firststep.docker-json.log"))
    cri = read(os.path.join(enc, "pytorch-oom-fragmentation.cri.log"))
    write("fuzz_container", "docker-json.log", b"\x00\x00" + docker[:4096])
    write("fuzz_container", "cri.log", b"\x00\x05" + cri)
    write("fuzz_container", "docker-escapes.log", b"\x01\x01"
          b'{"log":"a\\u00e9\\ud83d\\ude00 \\ud800 \\q \\"q\\" \\t\\b\\f\\/\\\\","stream":"stderr"}\n'
          b'{"log":"cut short \\u12\n{"log":"partial","stream":"stdout","time":"x"}\n')
    write("fuzz_container", "cri-partial.log", b"\x02\x03"
          b"2026-01-01T00:00:00.000000000Z stdout P 10%\n2026-01-01T00:00:00.1Z stdout F done\n"
          b"2026-01-01T00:00:00.2Z stderr F " + OOM + b"\nnot a record\n")

    wrapped = OOM[:80] + b"\n" + OOM[80:160] + b"\n" + OOM[160:] + b"\n"
    ops = lambda op, line: bytes([op]) + line + b"\n"
    write("fuzz_join", "wrap-80.txt", b"".join(ops(0 if i == 0 else 1, l) for i, l in enumerate(wrapped.split(b"\n")[:-1])))
    write("fuzz_join", "seam.txt", ops(2 | 8, OOM[:90]) + ops(3 | 0x38, OOM[90:]) + ops(1, b"  more text")
          + ops(1, b"") + ops(1, b"   ") + ops(1, b"[rank1]: next record") + ops(5, b""))
    write("fuzz_join", "long-lines.txt", ops(0x80 | 0x3f | 0, b"x" * 600) + ops(0x80 | 0x3f | 1, b"y" * 600)
          + ops(0x80 | 0x3f | 2 | 8, b"z" * 300) + ops(3 | 0x38, b"tail"))

    fields = b"\nn=3\nlimit_bytes=8589934592\nname=python3\nrank=1\nundefined\n"
    for i, cond in enumerate(rule_strings({"when", "first_when"})):
        write("fuzz_expr", f"rules-{i:03d}.txt", cond.encode() + fields)
    write("fuzz_expr", "all-operators.txt", b'!(a >= 1 GiB && (b / 0 > 2 || !has(c))) || d == "x" && 1.5e3 != -2' + fields)
    # Found by fuzz_expr: a long chain of operators overflowed the stack
    # when evaluated and freed (fixed in src/util/expr.c: at most 1000).
    write("fuzz_expr", "regression-long-chain.txt", b"&&".join([b"n"] * 1100) + fields)

    values = "\nn=3\nname=python3\nlimit_bytes=8 GiB\nstep=" + "\u4e2d" * 120 + "\n"
    for i, tpl in enumerate(rule_strings({"text", "action", "detail", "title"})):
        if "{" in tpl:
            write("fuzz_template", f"rules-{i:03d}.txt", (tpl + values).encode())
    write("fuzz_template", "braces.txt", b"{{literal}} {n} }} {{ {step}{step}" + values.encode())
    write("fuzz_template", "bad.txt", b"{unclosed" + values.encode())

    lang = json.loads(read(os.path.join(ROOT, "rules", "lang-zh-Hans.json")))
    lang["lang"] = "xx"
    write("fuzz_translate", "lang-xx.json", json.dumps(lang, ensure_ascii=False).encode())
    write("fuzz_translate", "rule-file-translations.json", json.dumps({
        "oomdiag_rules": 1, "translations": {"xx": {
            "ui": {"root_cause": "RC-xx", "evidence": "EV {0}", "nonsense": "x", "confidence": "{0} {1}"},
            "causes": {"c": {"title": "T-xx", "explanation": "", "summaries": ["S-xx {n} {nope}", "two", "three"],
                             "variants": {"v": {"title": "VT-xx"}, "w": {"title": "no such"}},
                             "remediation": {"s": {"action": "A-xx {n}", "detail": "D"}, "t": {"action": 3}}},
                       "ghost": {"title": "G"}}}}}).encode())
    write("fuzz_translate", "wrong-types.json",
          b'{"oomdiag_lang": 1, "lang": "xx", "ui": [], "causes": {"c": {"summaries": {"a": 1}, "variants": []}}}')

    fixture = trim(read(os.path.join(ROOT, "fixtures", FIXTURES[0])))[:8192]
    for mode in range(0, 32, 3):
        write("fuzz_relay", f"mode-{mode:02d}.log", bytes([mode, mode * 7 % 256, mode * 13 % 256]) + fixture)
    write("fuzz_relay", "empty-exit.log", b"\x19\x00\x00")


def main():
    for sub in ("fuzz_rules", "fuzz_reader", "fuzz_scan", "fuzz_decompress", "fuzz_utf16", "fuzz_container",
                "fuzz_join", "fuzz_expr", "fuzz_template", "fuzz_translate", "fuzz_relay"):
        d = os.path.join(OUT, sub)
        for name in os.listdir(d) if os.path.isdir(d) else []:
            if not name.startswith("found-"):
                os.remove(os.path.join(d, name))
    scan_seeds()
    reader_seeds()
    rules_seeds()
    decoder_seeds()
    for sub in sorted(os.listdir(OUT)):
        files = os.listdir(os.path.join(OUT, sub))
        size = sum(os.path.getsize(os.path.join(OUT, sub, f)) for f in files)
        print(f"{sub}: {len(files)} files, {size} bytes")


if __name__ == "__main__":
    main()
