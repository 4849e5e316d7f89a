#!/usr/bin/env python3
"""Scenario lightning-oom: PyTorch Lightning training; batch 6 holds one very
long sequence and the naive attention runs out of GPU memory."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

try:
    import lightning.pytorch as pl
except ImportError:  # pragma: no cover
    import pytorch_lightning as pl


class Docs(Dataset):
    def __len__(self):
        return 40

    def __getitem__(self, i):
        n = 24576 if i == 6 else 512     # one very long document
        return torch.randint(0, 1000, (n,))


class Model(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(1000, 256)
        self.qkv = nn.Linear(256, 768)
        self.head = nn.Linear(256, 1000)

    def training_step(self, batch, batch_idx):
        x = self.emb(batch)
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = q.view(1, -1, 32, 8).transpose(1, 2)
        k = k.view(1, -1, 32, 8).transpose(1, 2)
        v = v.view(1, -1, 32, 8).transpose(1, 2)
        att = (q @ k.transpose(-1, -2) / math.sqrt(8)).softmax(-1)
        y = (att @ v).transpose(1, 2).reshape(1, -1, 256)
        loss = F.cross_entropy(self.head(y).view(-1, 1000), batch.view(-1))
        self.log("train_loss", loss, prog_bar=True)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


if __name__ == "__main__":
    pl.seed_everything(0)
    trainer = pl.Trainer(max_epochs=1, accelerator="gpu", devices=1, logger=False,
                         enable_checkpointing=False, log_every_n_steps=1)
    trainer.fit(Model(), DataLoader(Docs(), batch_size=1))
