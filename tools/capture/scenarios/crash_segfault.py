#!/usr/bin/env python3
"""Scenario crash-segfault: a native extension dereferences NULL."""
import ctypes
import faulthandler

faulthandler.enable()
print("loading custom op library", flush=True)
for step in range(3):
    print(f"step {step}", flush=True)
ctypes.string_at(0)
