#!/usr/bin/env python3
"""Writes the encoded inputs of the reader's CLI transcripts from real
fixtures, the way the programs that write such files write them.  Run from
the repository root: python3 tests/cli/data/encoded/make.py

  hf-trainer-oom.utf16le-bom.log
      Windows PowerShell 5's `python train.py > log.txt`: CRLF line ends,
      UTF-16LE with a byte-order mark; made with `iconv -f UTF-8 -t UTF-16`
      (glibc's iconv writes the BOM, then little-endian on this machine).
  pytorch-oom-forward-firststep.docker-json.log
      docker's json-file logging driver (moby daemon/logger/jsonfilelog):
      one {"log":...,"stream":"stderr","time":...} object per line, the
      text escaped as moby's ffjsonWriteJSONBytesAsString does (\\n, \\r,
      \\", \\\\; other controls and < > & as \\u00XX; bad UTF-8 as \\ufffd),
      lines over 16 KiB split into records without the final "\\n", the
      time in RFC 3339 with nanoseconds, trailing zeros dropped (Go's
      RFC3339Nano).
  pytorch-oom-fragmentation.cri.log
      containerd's CRI logger (the format kubelet reads): "TIME STREAM TAG
      TEXT" per line, TAG "F", or "P" for all but the last piece of a line
      longer than max_container_log_line_size (16384 by default).

Python tracebacks, logging and tqdm all write to stderr, so every record's
stream is stderr.
"""
import datetime
import subprocess

FIX = "fixtures/"
OUT = "tests/cli/data/encoded/"
MAX_LINE = 16 * 1024
T0 = datetime.datetime(2026, 11, 29, 19, 41, 46, tzinfo=datetime.timezone.utc)


def rfc3339nano(i):
    t = T0 + datetime.timedelta(microseconds=1237 * i)
    ns = f"{t.microsecond * 1000 + i % 1000:09d}".rstrip("0")
    return t.strftime("%Y-%m-%dT%H:%M:%S") + (f".{ns}" if ns else "") + "Z"


def lines_of(name):
    with open(FIX + name, "rb") as f:
        data = f.read()
    # split at "\n" only, as docker and containerd do: "\r" stays inside
    lines = [l + b"\n" for l in data.split(b"\n")]
    lines[-1] = lines[-1][:-1]
    return [l for l in lines if l]


def moby_escape(b):
    out = []
    s = b.decode("utf-8", errors="surrogateescape")
    for ch in s:
        c = ord(ch)
        if 0xDC80 <= c <= 0xDCFF:  # a byte that is not UTF-8
            out.append("\\ufffd")
        elif c < 0x80:
            if c >= 0x20 and ch not in '\\"<>&':
                out.append(ch)
            elif ch in '\\"':
                out.append("\\" + ch)
            elif ch == "\n":
                out.append("\\n")
            elif ch == "\r":
                out.append("\\r")
            else:
                out.append(f"\\u00{c:02x}")
        elif ch in "\u2028\u2029":
            out.append(f"\\u{c:04x}")
        else:
            out.append(ch)
    return "".join(out).encode("utf-8")


def docker(name):
    recs = []
    i = 0
    for line in lines_of(name):
        for k in range(0, len(line), MAX_LINE):
            piece = line[k : k + MAX_LINE]
            recs.append(b'{"log":"' + moby_escape(piece) + b'","stream":"stderr","time":"' +
                        rfc3339nano(i).encode() + b'"}\n')
            i += 1
    with open(OUT + name.replace(".log", ".docker-json.log"), "wb") as f:
        f.write(b"".join(recs))


def cri(name):
    recs = []
    i = 0
    for line in lines_of(name):
        text = line[:-1] if line.endswith(b"\n") else line
        pieces = [text[k : k + MAX_LINE] for k in range(0, len(text), MAX_LINE)] or [b""]
        for n, piece in enumerate(pieces):
            tag = b"F" if n == len(pieces) - 1 else b"P"
            recs.append(rfc3339nano(i).encode() + b" stderr " + tag + b" " + piece + b"\n")
            i += 1
    with open(OUT + name.replace(".log", ".cri.log"), "wb") as f:
        f.write(b"".join(recs))


def powershell(name):
    crlf = b"".join((l[:-1] + b"\r\n" if l.endswith(b"\n") else l) for l in lines_of(name))
    enc = subprocess.run(["iconv", "-f", "UTF-8", "-t", "UTF-16"], input=crlf, capture_output=True, check=True)
    assert enc.stdout[:2] == b"\xff\xfe", "iconv did not write a UTF-16LE BOM"
    with open(OUT + name.replace(".log", ".utf16le-bom.log"), "wb") as f:
        f.write(enc.stdout)


powershell("hf-trainer-oom.log")
docker("pytorch-oom-forward-firststep.log")
cri("pytorch-oom-fragmentation.log")
