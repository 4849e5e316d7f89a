#!/usr/bin/env python3
"""codes-kernel-fault MODE [torch]: a CuPy RawKernel stores through a bad
address; with 'torch' the kernel writes into a PyTorch tensor and PyTorch's
synchronize reports the error. MODE: far (index 2**40 past the array), neg
(index -2**28), null (address 8), sharedgen (st.global to the generic address
of a __shared__ array), localgen (st.global to the generic address of a
local array)."""
import sys

import cupy as cp

SRC = r'''
extern "C" __global__
void bad_store(float* out, long long n, int mode) {
    __shared__ float sh[64];
    float loc[8];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    sh[threadIdx.x % 64] = (float)i;
    loc[i % 8] = (float)i;
    __syncthreads();
    if (i >= n) return;
    out[i] = sh[(threadIdx.x + 1) % 64] + loc[(i + 1) % 8];
    if (i != 77) return;
    unsigned long long a;
    if (mode == 0) a = (unsigned long long)(out + (1LL << 40));
    else if (mode == 1) a = (unsigned long long)(out - (1LL << 28));
    else if (mode == 2) a = 8ULL;
    else if (mode == 3) a = (unsigned long long)(&sh[3]);
    else if (mode == 4) a = (unsigned long long)(&loc[3]);
    else return;
    asm volatile("st.global.f32 [%0], %1;" :: "l"(a), "f"(2.0f) : "memory");
}
'''
MODES = {"far": 0, "neg": 1, "null": 2, "sharedgen": 3, "localgen": 4}


def main():
    mode = sys.argv[1]
    use_torch = len(sys.argv) > 2 and sys.argv[2] == "torch"
    k = cp.RawKernel(SRC, "bad_store")
    n = 1 << 16
    if use_torch:
        import torch
        print(f"torch {torch.__version__}, cupy {cp.__version__}, mode {mode}", flush=True)
        t = torch.zeros(n, device="cuda")
        for step in range(1, 4):
            k(((n + 255) // 256,), (256,), (cp.asarray(t), cp.int64(n), cp.int32(MODES[mode] if step == 2 else 99)))
            torch.cuda.synchronize()
            print(f"step {step}: sum {t.sum().item():.1f}", flush=True)
    else:
        print(f"cupy {cp.__version__}, CUDA runtime {cp.cuda.runtime.runtimeGetVersion()}, mode {mode}", flush=True)
        out = cp.zeros(n, dtype=cp.float32)
        for step in range(1, 4):
            m = MODES[mode] if step == 2 else 99
            k(((n + 255) // 256,), (256,), (out, cp.int64(n), cp.int32(m)))
            print(f"step {step}: sum {float(out.sum()):.1f}", flush=True)


if __name__ == "__main__":
    main()
