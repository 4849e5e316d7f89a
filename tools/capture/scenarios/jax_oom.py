#!/usr/bin/env python3
"""Scenario jax-oom: a jitted MLP train step with a batch-size ramp; XLA runs
out of device memory."""
import time

import jax
import jax.numpy as jnp

print(f"jax {jax.__version__}, devices: {jax.devices()}", flush=True)
D_IN, D_H = 8192, 16384


def init(key):
    k1, k2 = jax.random.split(key)
    return {"w1": jax.random.normal(k1, (D_IN, D_H)) * 0.01, "w2": jax.random.normal(k2, (D_H, 1)) * 0.01}


def loss_fn(p, x, y):
    h = jax.nn.relu(x @ p["w1"])
    return jnp.mean((h @ p["w2"] - y) ** 2)


@jax.jit
def train_step(p, x, y):
    loss, g = jax.value_and_grad(loss_fn)(p, x, y)
    return jax.tree_util.tree_map(lambda a, b: a - 1e-3 * b, p, g), loss


params = init(jax.random.PRNGKey(0))
key = jax.random.PRNGKey(1)
bs = 8192
for step in range(1, 30):
    if step % 3 == 0:
        bs *= 4
    key, kx = jax.random.split(key)
    x = jax.random.normal(kx, (bs, D_IN))
    y = jnp.ones((bs, 1))
    t = time.time()
    params, loss = train_step(params, x, y)
    print(f"step {step} batch {bs} loss {float(loss):.5f} ({time.time()-t:.2f}s)", flush=True)
