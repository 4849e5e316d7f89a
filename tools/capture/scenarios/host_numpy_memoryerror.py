#!/usr/bin/env python3
"""Scenario host-memoryerror-numpy: preallocating a dataset array with a wrong
sample count (10**9 instead of 10**5)."""
import numpy as np

N_SAMPLES = 10**9   # bug: meant 10**5
print(f"numpy {np.__version__}: preallocating feature array for {N_SAMPLES} samples", flush=True)
features = np.empty((N_SAMPLES, 3, 224, 224), dtype=np.float32)
print(features.shape)
