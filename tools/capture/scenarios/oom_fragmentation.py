#!/usr/bin/env python3
"""Scenario pytorch-oom-fragmentation: one big transient buffer is cached by
the allocator, later split into many 1 GiB blocks; every other block is kept
(a replay cache), so lots of memory is reserved-but-unallocated in holes no
larger than 1 GiB, and a 3 GiB request fails."""
import os
import time

import torch

DEVICE = os.environ.get("CAPTURE_DEVICE", "cuda")
GiB = 2**30
BIG_GIB = int(os.environ.get("BIG_GIB", 120))
CHUNK_GIB = 1
REQ_GIB = int(os.environ.get("REQ_GIB", 3))


def main():
    print(f"torch {torch.__version__} | PYTORCH_CUDA_ALLOC_CONF={os.environ.get('PYTORCH_CUDA_ALLOC_CONF')!r}", flush=True)
    free, total = torch.cuda.mem_get_info()
    print(f"device {torch.cuda.get_device_name(0)}: {free/GiB:.1f} GiB free of {total/GiB:.1f} GiB", flush=True)

    # step 0: a large warm-up batch, freed afterwards (the allocator keeps it cached)
    print(f"step 0: warm-up batch, activation buffer {BIG_GIB} GiB", flush=True)
    act = torch.empty(BIG_GIB * GiB, dtype=torch.uint8, device=DEVICE)
    act.zero_()
    del act
    print(f"  reserved {torch.cuda.memory_reserved()/GiB:.1f} GiB, allocated {torch.cuda.memory_allocated()/GiB:.1f} GiB", flush=True)

    # steps 1..N: micro-batches of 1 GiB; we keep every other output in a replay cache
    chunks = []
    for i in range(BIG_GIB // CHUNK_GIB):
        t = torch.empty(CHUNK_GIB * GiB, dtype=torch.uint8, device=DEVICE)
        chunks.append(t)
        if (i + 1) % 20 == 0:
            print(f"step {i+1}: micro-batch buffers {len(chunks)} | allocated {torch.cuda.memory_allocated()/GiB:.1f} GiB", flush=True)

    free, _ = torch.cuda.mem_get_info()
    prefetch = free - 1 * GiB
    print(f"prefetching eval set to GPU: {prefetch/GiB:.2f} GiB", flush=True)
    eval_cache = torch.empty(prefetch, dtype=torch.uint8, device=DEVICE)

    replay = chunks[1::2]
    del chunks
    print(f"replay cache holds {len(replay)} buffers | allocated {torch.cuda.memory_allocated()/GiB:.1f} GiB | "
          f"reserved {torch.cuda.memory_reserved()/GiB:.1f} GiB", flush=True)

    print(f"step {BIG_GIB+1}: gradient bucket {REQ_GIB} GiB", flush=True)
    grad_bucket = torch.empty(REQ_GIB * GiB, dtype=torch.uint8, device=DEVICE)
    print("unexpected: allocation succeeded", grad_bucket.numel(), eval_cache.numel(), len(replay))


if __name__ == "__main__":
    main()
