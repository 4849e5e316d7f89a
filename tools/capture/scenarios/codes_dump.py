#!/usr/bin/env python3
"""codes-dump: print every status code of the CUDA runtime and driver, cuBLAS,
cuDNN, cuSPARSE, NVRTC and NCCL with the name and message the installed
libraries themselves return (tab-separated: library, number, name, message).
Libraries without a string function (cuFFT, cuSOLVER, cuRAND) are read from
their headers instead; codes_headers.sh copies those."""
import ctypes
import glob
import os
import site
import sys

ROOTS = site.getsitepackages() + ["/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib",
                                  "/usr/lib/x86_64-linux-gnu", "/usr/local/nvidia/lib64"]


def load(names):
    for root in ROOTS:
        for name in names:
            for path in sorted(glob.glob(os.path.join(root, "**", name), recursive=True)):
                try:
                    return ctypes.CDLL(path), path
                except OSError:
                    pass
    for name in names:
        try:
            return ctypes.CDLL(name.replace("*", "")), name
        except OSError:
            pass
    return None, None


def out(lib, num, name, msg):
    print(f"{lib}\t{num}\t{name}\t{msg}", flush=True)


def s(p):
    return p.decode(errors="replace") if p else ""


def runtime():
    lib, path = load(["libcudart.so*"])
    print(f"# runtime {path}", flush=True)
    if lib is None:
        return
    lib.cudaGetErrorName.restype = ctypes.c_char_p
    lib.cudaGetErrorString.restype = ctypes.c_char_p
    for i in list(range(0, 1100)) + [10000]:
        n = s(lib.cudaGetErrorName(i))
        if n and "unrecognized" not in n:
            out("cudart", i, n, s(lib.cudaGetErrorString(i)))


def driver():
    lib, path = load(["libcuda.so.1"])
    print(f"# driver {path}", flush=True)
    if lib is None:
        return
    for i in range(0, 1100):
        n = ctypes.c_char_p()
        m = ctypes.c_char_p()
        if lib.cuGetErrorName(i, ctypes.byref(n)) == 0:
            lib.cuGetErrorString(i, ctypes.byref(m))
            out("cuda", i, s(n.value), s(m.value))


def simple(tag, names, fname, fstring, rng):
    lib, path = load(names)
    print(f"# {tag} {path}", flush=True)
    if lib is None:
        return
    fn = getattr(lib, fname, None) if fname else None
    fs = getattr(lib, fstring, None)
    for f in (fn, fs):
        if f is not None:
            f.restype = ctypes.c_char_p
    seen = set()
    for i in rng:
        n = s(fn(i)) if fn else ""
        m = s(fs(i)) if fs else ""
        key = (n, m)
        if not n and not m:
            continue
        if "UNKNOWN" in n.upper() and i != 0 and key in seen:
            continue
        if key in seen and (fn is None):
            continue
        seen.add(key)
        out(tag, i, n, m)


def main():
    runtime()
    driver()
    simple("cublas", ["libcublas.so*"], "cublasGetStatusName", "cublasGetStatusString", range(0, 40))
    simple("cudnn", ["libcudnn_graph.so*", "libcudnn.so*"], None, "cudnnGetErrorString",
           [i for b in range(0, 10000, 1000) for i in range(b, b + 200)])
    simple("cusparse", ["libcusparse.so*"], "cusparseGetErrorName", "cusparseGetErrorString", range(0, 40))
    simple("nvrtc", ["libnvrtc.so*"], None, "nvrtcGetErrorString", range(0, 40))
    simple("nccl", ["libnccl.so*"], None, "ncclGetErrorString", range(0, 20))
    simple("nvjitlink", ["libnvJitLink.so*"], None, None, range(0))


if __name__ == "__main__":
    sys.exit(main())
