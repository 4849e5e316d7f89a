#!/usr/bin/env python3
"""Scenario host-memoryerror-python: a plain Python MemoryError."""
size = 10**15
print(f"reading shard into a {size}-byte buffer", flush=True)
buf = bytearray(size)
print(len(buf))
