#!/usr/bin/env python3
"""codes-exhausted WHAT: PyTorch keeps 1 GiB cached in its allocator, then
every other byte of the GPU is taken with raw cudaMalloc (through CuPy's
runtime binding), so the first call that makes a library allocate outside
PyTorch's allocator fails. WHAT: cublas (first matmul creates the cuBLAS
handle), cudnn (first convolution creates the cuDNN handle), nccl (first
all_reduce of a one-rank NCCL process group creates the communicator)."""
import os
import sys

import cupy as cp
import torch


def fill():
    held = []
    chunk = 1 << 30
    while chunk >= (1 << 16):
        try:
            held.append(cp.cuda.runtime.malloc(chunk))
        except cp.cuda.runtime.CUDARuntimeError:
            chunk //= 2
    free, total = cp.cuda.runtime.memGetInfo()
    print(f"filled: {len(held)} raw allocations, {free} bytes free of {total}", flush=True)
    return held


def main():
    what = sys.argv[1]
    print(f"torch {torch.__version__}, CUDA {torch.version.cuda}, cuDNN {torch.backends.cudnn.version()}, "
          f"NCCL {'.'.join(map(str, torch.cuda.nccl.version()))}, what {what}", flush=True)
    dev = torch.device("cuda", 0)
    torch.zeros(1, device=dev)
    if what == "nccl":
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
        os.environ.setdefault("MASTER_PORT", "29533")
        torch.distributed.init_process_group("nccl", rank=0, world_size=1, device_id=None)
    a = torch.randn(1024, 1024, device=dev)
    b = torch.randn(1024, 1024, device=dev)
    x = torch.randn(8, 3, 64, 64, device=dev)
    w = torch.randn(16, 3, 3, 3, device=dev)
    cache = torch.empty(1 << 30, dtype=torch.uint8, device=dev)
    del cache  # stays reserved by PyTorch's caching allocator
    held = fill()
    for step in range(1, 4):
        if what == "cublas":
            y = a @ b
        elif what == "cudnn":
            y = torch.nn.functional.conv2d(x, w, padding=1)
        else:
            y = a.clone()
            torch.distributed.all_reduce(y)
        torch.cuda.synchronize()
        print(f"step {step}: {y.float().sum().item():.3f}", flush=True)
    del held


if __name__ == "__main__":
    main()
