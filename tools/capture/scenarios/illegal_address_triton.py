#!/usr/bin/env python3
"""Scenario pytorch-illegal-address: a custom Triton scatter kernel trusts its
indices; a corrupted index makes it store far outside the output tensor."""
import os

import torch
import triton
import triton.language as tl


@triton.jit
def scatter_kernel(out_ptr, idx_ptr, val_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    idx = tl.load(idx_ptr + offs, mask=mask, other=0)
    val = tl.load(val_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + idx, val, mask=mask)   # no bounds check on idx


def scatter(out, idx, val):
    n = idx.numel()
    grid = (triton.cdiv(n, 1024),)
    scatter_kernel[grid](out, idx, val, n, BLOCK=1024)
    return out


def main():
    print(f"torch {torch.__version__} triton {triton.__version__}", flush=True)
    out = torch.zeros(1 << 20, device="cuda")
    for step in range(1, 11):
        idx = torch.randint(0, out.numel(), (1 << 16,), device="cuda", dtype=torch.int64)
        if step == 4:
            idx[123] = 1 << 40   # corrupted index from an upstream bug
        val = torch.randn(1 << 16, device="cuda")
        scatter(out, idx, val)
        print(f"step {step}: out.sum()={out.sum().item():.3f}", flush=True)


if __name__ == "__main__":
    main()
