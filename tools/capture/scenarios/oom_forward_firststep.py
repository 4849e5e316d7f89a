#!/usr/bin/env python3
"""Scenario pytorch-oom-forward-firststep: a small LM whose batch (256 x 8192
tokens) needs far more activation memory than the card has; CUDA OOM in the
forward pass of the very first step."""
import logging
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from tqdm import tqdm

logging.basicConfig(level=logging.INFO,
                    format="%(asctime)s %(levelname)s [%(name)s] %(message)s")
log = logging.getLogger("train")

DEVICE = os.environ.get("CAPTURE_DEVICE", "cuda")
VOCAB, D_MODEL, D_FF = 32000, 4096, 16384
BATCH = int(os.environ.get("BATCH", 256))
SEQ = int(os.environ.get("SEQ", 8192))
STEPS = 100


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln = nn.LayerNorm(D_MODEL)
        self.up = nn.Linear(D_MODEL, D_FF)
        self.down = nn.Linear(D_FF, D_MODEL)

    def forward(self, x):
        return x + self.down(F.gelu(self.up(self.ln(x))))


class LM(nn.Module):
    def __init__(self, n_layers=2):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, D_MODEL)
        self.blocks = nn.ModuleList(Block() for _ in range(n_layers))
        self.head = nn.Linear(D_MODEL, VOCAB, bias=False)

    def forward(self, idx):
        x = self.emb(idx)
        for b in self.blocks:
            x = b(x)
        return self.head(x)


def main():
    torch.manual_seed(0)
    log.info("torch %s, device %s", torch.__version__,
             torch.cuda.get_device_name(0) if DEVICE == "cuda" else DEVICE)
    model = LM().to(DEVICE)
    n = sum(p.numel() for p in model.parameters())
    log.info("model has %.2fM parameters", n / 1e6)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.1)
    log.info("batch size %d, sequence length %d (%d tokens/step)", BATCH, SEQ, BATCH * SEQ)
    t0 = time.time()
    for step in tqdm(range(STEPS), desc="train", dynamic_ncols=False, ncols=100):
        idx = torch.randint(0, VOCAB, (BATCH, SEQ), device=DEVICE)
        logits = model(idx)
        loss = F.cross_entropy(logits.view(-1, VOCAB), idx.view(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        if step % 10 == 0:
            tqdm.write(f"step {step}/{STEPS} loss {loss.item():.4f} elapsed {time.time() - t0:.1f}s")
    log.info("done")


if __name__ == "__main__":
    main()
