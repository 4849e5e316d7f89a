#!/usr/bin/env python3
"""codes-cupy WHAT: one failing call into a CUDA library through CuPy, to see
how CuPy prints that library's status. WHAT: malloc (cudaMalloc of 1 PiB),
cublas (sgemm with m = -1), cufft (a plan of size 0), cusolver (getrf buffer
size with m = -1), cusparse (a CSR descriptor with negative rows), nvrtc
(a kernel with a syntax error), assert (a kernel whose assert fails)."""
import sys

import cupy as cp


def main():
    what = sys.argv[1]
    print(f"cupy {cp.__version__}, CUDA runtime {cp.cuda.runtime.runtimeGetVersion()}, what {what}", flush=True)
    if what == "malloc":
        cp.cuda.runtime.malloc(1 << 50)
    elif what == "cublas":
        from cupy_backends.cuda.libs import cublas
        h = cp.cuda.device.get_cublas_handle()
        a = cp.ones((4, 4), dtype=cp.float32)
        one = cp.ones((), dtype=cp.float32)
        cublas.setPointerMode(h, cublas.CUBLAS_POINTER_MODE_DEVICE)
        cublas.sgemm(h, 0, 0, -1, 4, 4, one.data.ptr, a.data.ptr, 4, a.data.ptr, 4, one.data.ptr, a.data.ptr, 4)
    elif what == "cufft":
        from cupy.cuda import cufft
        cufft.Plan1d(0, cufft.CUFFT_C2C, 1)
    elif what == "cusolver":
        from cupy_backends.cuda.libs import cusolver
        h = cp.cuda.device.get_cusolver_handle()
        a = cp.ones((4, 4), dtype=cp.float32)
        cusolver.sgetrf_bufferSize(h, -1, 4, a.data.ptr, 4)
    elif what == "cusparse":
        from cupy_backends.cuda.libs import cusparse
        v = cp.zeros(4, dtype=cp.int32)
        f = cp.zeros(4, dtype=cp.float32)
        cusparse.createCsr(-1, 4, 4, v.data.ptr, v.data.ptr, f.data.ptr, 2, 2, 0, 0)
    elif what == "nvrtc":
        cp.RawKernel(r'extern "C" __global__ void k(float* x) { x[0] = ; }', "k").compile()
    elif what == "assert":
        k = cp.RawKernel(r'''
#include <assert.h>
extern "C" __global__ void check(const int* labels, int n, int classes) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) assert(labels[i] >= 0 && labels[i] < classes);
}''', "check")
        labels = cp.arange(1000, dtype=cp.int32)
        k((4,), (256,), (labels, cp.int32(1000), cp.int32(10)))
        cp.cuda.runtime.deviceSynchronize()


if __name__ == "__main__":
    main()
