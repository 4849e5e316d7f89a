#!/usr/bin/env python3
"""Scenario cupy-illegal-address: a CuPy RawKernel gather with a corrupted
index reads far outside its source array."""
import cupy as cp

SRC = r'''
extern "C" __global__
void gather(const float* src, const long long* idx, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = src[idx[i]];
}
'''


def main():
    print(f"cupy {cp.__version__}, CUDA runtime {cp.cuda.runtime.runtimeGetVersion()}", flush=True)
    k = cp.RawKernel(SRC, "gather")
    src = cp.arange(1 << 20, dtype=cp.float32)
    for step in range(1, 6):
        idx = cp.random.randint(0, src.size, size=1 << 16).astype(cp.int64)
        if step == 3:
            idx[77] = 1 << 42
        out = cp.empty(idx.size, dtype=cp.float32)
        k(((idx.size + 255) // 256,), (256,), (src, idx, out, cp.int32(idx.size)))
        print(f"step {step}: checksum {float(out.sum()):.1f}", flush=True)


if __name__ == "__main__":
    main()
