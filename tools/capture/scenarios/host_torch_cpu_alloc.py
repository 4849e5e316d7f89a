#!/usr/bin/env python3
"""Scenario host-memoryerror-torch-cpu: a huge CPU tensor (pinned-memory
staging buffer with a wrong size)."""
import torch

N = 10**9   # bug: meant 10**5
print(f"torch {torch.__version__}: allocating CPU staging buffer for {N} images", flush=True)
buf = torch.empty((N, 3, 224, 224), dtype=torch.float32)
print(buf.shape)
