#!/usr/bin/env python3
"""nocontrol.py: copies standard input to standard output, then says on
a last line whether it held an ESC byte, another control character but
newline (C0, DEL, C1) or bytes that are not UTF-8."""
import sys

data = sys.stdin.buffer.read()
sys.stdout.buffer.write(data)
problems = []
if b"\x1b" in data:
    problems.append("an ESC byte")
try:
    text = data.decode("utf-8")
except UnicodeDecodeError as e:
    problems.append(f"invalid UTF-8 at byte {e.start}")
    text = data.decode("utf-8", "replace")
bad = sorted({f"U+{ord(c):04X}" for c in text if (ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) <= 0x9F})
if bad:
    problems.append("control characters " + " ".join(bad))
print("output check: " + ("; ".join(problems) if problems else "no ESC byte, no control characters, valid UTF-8"))
