#!/usr/bin/env python3
"""Multi-GPU scenarios (run under torchrun). A small DDP language model with
naive attention; FAIL_MODE picks what goes wrong on rank FAIL_RANK at step
FAIL_STEP:
  oom     - that rank gets one very long sequence: CUDA OOM, nothing caught
  sigkill - that rank is SIGKILLed (as the host OOM killer would)
  hang    - that rank stalls (stuck I/O) and never joins the next collective
The process group timeout is NCCL_PG_TIMEOUT seconds (60)."""
import datetime
import logging
import math
import os
import signal
import sys
import time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.distributed.elastic.multiprocessing.errors import record
from torch.nn.parallel import DistributedDataParallel as DDP

FAIL_MODE = os.environ.get("FAIL_MODE", "none")
FAIL_RANK = int(os.environ.get("FAIL_RANK", 1))
FAIL_STEP = int(os.environ.get("FAIL_STEP", 5))
STEPS = int(os.environ.get("STEPS", 20))
PG_TIMEOUT = int(os.environ.get("NCCL_PG_TIMEOUT", 60))
B, H, DH, VOCAB = 4, 16, 64, 8192
D = H * DH


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, D)
        self.qkv = nn.Linear(D, 3 * D)
        self.proj = nn.Linear(D, D)
        self.mlp = nn.Sequential(nn.Linear(D, 4 * D), nn.GELU(), nn.Linear(4 * D, D))
        self.head = nn.Linear(D, VOCAB)

    def forward(self, idx):
        x = self.emb(idx)
        b, l, _ = x.shape
        q, k, v = self.qkv(x).view(b, l, 3, H, DH).permute(2, 0, 3, 1, 4)
        att = ((q @ k.transpose(-2, -1)) / math.sqrt(DH)).softmax(-1)
        x = x + self.proj((att @ v).transpose(1, 2).reshape(b, l, D))
        x = x + self.mlp(x)
        return self.head(x)


@record
def main():
    rank = int(os.environ["RANK"])
    local_rank = int(os.environ["LOCAL_RANK"])
    world = int(os.environ["WORLD_SIZE"])
    logging.basicConfig(level=logging.INFO,
                        format=f"%(asctime)s [rank{rank}] %(levelname)s %(name)s: %(message)s")
    log = logging.getLogger("train")
    torch.cuda.set_device(local_rank)
    dist.init_process_group(backend="nccl", timeout=datetime.timedelta(seconds=PG_TIMEOUT))
    log.info("initialised process group: rank %d/%d, local_rank %d, device %s, timeout %ss",
             rank, world, local_rank, torch.cuda.get_device_name(), PG_TIMEOUT)
    model = DDP(Net().cuda(), device_ids=[local_rank])
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    log.info("model parameters: %.1fM", sum(p.numel() for p in model.parameters()) / 1e6)
    g = torch.Generator().manual_seed(rank)
    for step in range(1, STEPS + 1):
        t = time.time()
        seq = 512
        if rank == FAIL_RANK and step == FAIL_STEP:
            if FAIL_MODE == "oom":
                seq = 32768   # one very long document in this rank's shard
                log.info("step %d: batch with sequence length %d", step, seq)
            elif FAIL_MODE == "sigkill":
                os.kill(os.getpid(), signal.SIGKILL)
            elif FAIL_MODE == "hang":
                time.sleep(3600)   # e.g. stuck reading from a network filesystem
        idx = torch.randint(0, VOCAB, (B, seq + 1), generator=g).cuda(non_blocking=True)
        logits = model(idx[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), idx[:, 1:].reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        avg = loss.detach().clone()
        dist.all_reduce(avg)
        avg = avg.item() / world
        log.info("step %d/%d loss %.4f (%.3fs)", step, STEPS, avg, time.time() - t)
        time.sleep(0.3)
    dist.destroy_process_group()
    log.info("done")


if __name__ == "__main__":
    main()
