#!/usr/bin/env python3
"""Writes tests/inventory/{cuda,cublas,cudnn,hip}.tsv: every code of the CUDA
runtime and driver, cuBLAS, cuDNN and HIP catalogues in the formats real
programs print them, with the verdict oomdiag owes each line.

The codes come from what the libraries return (tools/capture/captured/codes/
code-tables.tsv: cudaGetErrorName/String, cuGetErrorName/String,
cublasGetStatusName/String, cudnnGetErrorString on an H200) and, for HIP,
from ROCm clr hipamd/src/hip_error.cpp as the code lists of rules/codes-hip.json
and rules/rocm.json quote it; what each code means from
tools/catalogue/cuda-causes.tsv and the tables below. The formats are the
printf templates of the programs that print them, cited per row. Run from
the repository root: python3 tools/catalogue/gen_inventory.py
"""
import csv
import json
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLE = os.path.join(ROOT, "tools/capture/captured/codes/code-tables.tsv")
CAUSES = os.path.join(ROOT, "tools/catalogue/cuda-causes.tsv")
OUT = os.path.join(ROOT, "tests/inventory")
HEADER = ["stack", "source", "template", "cause", "role", "values", "note"]

GROUP_CAUSE = {
    "oom": ("gpu-oom", "root"), "fault": ("illegal-address", "root"), "fault-medium": ("illegal-address", "root"),
    "fault-low": ("illegal-address", "root"), "fault-after": ("illegal-address", "consequence"),
    "assert": ("device-assert", "root"), "hw": ("gpu-hardware", "root"), "hw-contained": ("gpu-hardware", "root"),
    "driver-old": ("driver", "root"), "driver-fabric": ("driver", "root"), "driver-nodevice": ("driver", "root"),
    "driver-ordinal": ("driver", "root"), "driver-busy": ("driver", "root"), "driver-arch": ("driver", "root"),
    "driver-arch-function": ("driver", "root"), "driver-install": ("driver", "root"), "driver-env": ("driver", "root"),
    "driver-hang": ("driver", "root"), "driver-after": ("driver", "consequence"), "usage": ("usage-error", "root"),
    "usage-launch": ("usage-error", "root"), "none": ("none", "any"),
}

PT = "pytorch/c10/cuda/CUDAException.cpp@v2.9.0 (C10_CUDA_CHECK: 'CUDA error: ' + cudaGetErrorString)"
PT_SEARCH = "pytorch/c10/cuda/CUDAException.cpp@v2.9.0 (the 'Search for' line, cudaGetErrorName)"
CUPY_RT = "cupy/cupy_backends/cuda/api/runtime.pyx@v13.3.0 (CUDARuntimeError: '%s: %s' % (cudaGetErrorName, cudaGetErrorString))"
CUPY_DRV = "cupy/cupy_backends/cuda/api/driver.pyx@v13.3.0 (CUDADriverError: '%s: %s' % (cuGetErrorName, cuGetErrorString))"
SAMPLES = "NVIDIA/cuda-samples Common/helper_cuda.h@v12.8 (check(): 'CUDA error at %s:%d code=%d(%s) \"%s\" ')"
CAFFE = "BVLC/caffe include/caffe/util/device_alternate.hpp@1.0 (CUDA_CHECK: CHECK_EQ(error, cudaSuccess) << \" \" << cudaGetErrorString(error); glog line, as in houqb/DSS#25)"
GPUASSERT = "the gpuErrchk macro (fprintf(stderr, \"GPUassert: %s %s %d\\n\", cudaGetErrorString(code), file, line)), as in frobnitzem/slack gen/cuda_bits.h"
TRITON = "triton-lang/triton third_party/nvidia/backend/driver.c (PyErr_Format 'Triton Error [CUDA]: %s', cuGetErrorString), as in triton-lang/triton#1302"
NUMBA = "numba/numba/cuda/cudadrv/driver.py@0.60.0 (CudaAPIError(retcode, 'Call to %s results in %s' % (fname, errname)), str '[%s] %s')"
PADDLE = "PaddlePaddle/Paddle paddle/phi/core/enforce.h@v2.6 (External error: '(External) CUDA error(%d), %s.'), as in PaddlePaddle/PaddleOCR#6426"


def table():
    t = {"rt": {}, "drv": {}, "blas": {}, "dnn": {}}
    with open(TABLE, encoding="utf-8") as f:
        for row in csv.reader(f, delimiter="\t"):
            api, num, name = row[0], int(row[1]), row[2]
            text = row[3] if len(row) > 3 else ""
            if api not in t or "unrecognized" in text or "unrecognized" in name or not name:
                continue
            if api == "dnn" and ("UNKNOWN" in name.upper() and "CUDNN_STATUS" not in name):
                continue
            t[api][num] = (name, text)
    return t


def causes():
    out = {}
    with open(CAUSES, encoding="utf-8") as f:
        lines = [l for l in f if not l.startswith("#")]
    for r in csv.DictReader(lines, delimiter="\t"):
        out[int(r["number"])] = r["group"].strip()
    return out


def write(name, rows, comment):
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
        for c in comment:
            f.write("# " + c + "\n")
        f.write("\t".join(HEADER) + "\n")
        for r in rows:
            f.write("\t".join(r.get(k, "") for k in HEADER) + "\n")


def row(stack, source, template, cause, role, values="", note=""):
    return {"stack": stack, "source": source, "template": template, "cause": cause,
            "role": role if cause != "none" else "any", "values": values, "note": note}


def cuda(t, cz):
    rows = []
    for num, (name, text) in sorted(t["rt"].items()):
        cause, role = GROUP_CAUSE[cz.get(num, "none")]
        note = f"cudaError_t {num}"
        rows.append(row("cuda-runtime", PT, "torch.AcceleratorError: CUDA error: %s", cause, role, text, note))
        rows.append(row("cuda-runtime", PT_SEARCH, "Search for `%s' in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html for more information.", cause, role, name, note))
        rows.append(row("cuda-runtime", CUPY_RT, "cupy_backends.cuda.api.runtime.CUDARuntimeError: %s: %s", cause, role, f"{name}|{text}", note))
        rows.append(row("cuda-runtime", SAMPLES, "CUDA error at %s:%d code=%d(%s) \"%s\" ", cause, role, f"vectorAdd.cu|88|{num}|{name}|cudaMalloc((void **)&d_A, size)", note))
        rows.append(row("cuda-runtime", GPUASSERT, "GPUassert: %s %s %d", cause, role, f"{text}|kernel.cu|123", note))
        rows.append(row("cuda-runtime", CAFFE, "F0304 14:26:21.611594  4889 syncedmem.cpp:71] Check failed: error == cudaSuccess (%d vs. 0)  %s", cause, role, f"{num}|{text}", note))
    for num, (name, text) in sorted(t["drv"].items()):
        cause, role = GROUP_CAUSE[cz.get(num, "none")]
        note = f"CUresult {num}"
        rows.append(row("cuda-driver", CUPY_DRV, "cupy_backends.cuda.api.driver.CUDADriverError: %s: %s", cause, role, f"{name}|{text}", note))
        rows.append(row("cuda-driver", NUMBA, "numba.cuda.cudadrv.driver.CudaAPIError: [%d] Call to %s results in %s", cause, role, f"{num}|cuLaunchKernel|{name}", note))
        rows.append(row("cuda-driver", TRITON, "RuntimeError: Triton Error [CUDA]: %s", cause, role, text, note))
    # numbered forms of the common codes
    for num in (2, 700, 1, 701, 209, 100, 710):
        name, text = t["rt"][num]
        cause, role = GROUP_CAUSE[cz[num]]
        rows.append(row("cuda-runtime", PADDLE, "OSError: (External) CUDA error(%d), %s.", cause, role, f"{num}|{text}", f"cudaError_t {num}"))
        rows.append(row("cuda-runtime", "bcumming/summer-school cuda/check.h (CUDA_ERR_CHECK: 'CUDA error %d \"%s\" at %s:%d')", "CUDA error %d \"%s\" at %s:%d", cause, role, f"{num}|{text}|diffusion.cu|61", f"cudaError_t {num}"))
        rows.append(row("cuda-runtime", "lloydbrownjr/DRT2 src/cuda_errors.h, a cut-down helper_cuda.h ('CUDA error = ' << result << ' at ' << file << ':' << line << ' \\'' << func << '\\' ')", "CUDA error = %u at %s:%d '%s' ", cause, role, f"{num}|main.cu|45|cudaDeviceSynchronize()", f"cudaError_t {num}: the number alone"))
    return rows


BLAS = {  # status name: (cause, role)
    "CUBLAS_STATUS_SUCCESS": ("none", "any"),
    "CUBLAS_STATUS_NOT_INITIALIZED": ("driver", "consequence"),
    "CUBLAS_STATUS_ALLOC_FAILED": ("gpu-oom", "root"),
    "CUBLAS_STATUS_INVALID_VALUE": ("usage-error", "root"),
    "CUBLAS_STATUS_ARCH_MISMATCH": ("driver", "root"),
    "CUBLAS_STATUS_MAPPING_ERROR": ("driver", "consequence"),
    "CUBLAS_STATUS_EXECUTION_FAILED": ("driver", "consequence"),
    "CUBLAS_STATUS_INTERNAL_ERROR": ("driver", "consequence"),
    "CUBLAS_STATUS_NOT_SUPPORTED": ("usage-error", "root"),
    "CUBLAS_STATUS_LICENSE_ERROR": ("driver", "root"),
}
PT_BLAS = "pytorch/aten/src/ATen/cuda/Exceptions.h@v2.9.0 (TORCH_CUDABLAS_CHECK: 'CUDA error: ' + status name + ' when calling `' + call + '`')"
CUPY_BLAS = "cupy/cupy_backends/cuda/libs/cublas.pyx@v13.3.0 (CUBLASError: the status name)"


def cublas(t):
    rows = []
    for num, (name, text) in sorted(t["blas"].items()):
        cause, role = BLAS[name]
        note = f"cublasStatus_t {num}: {text}"
        rows.append(row("cublas", PT_BLAS, "RuntimeError: CUDA error: %s when calling `%s`", cause, role, f"{name}|cublasSgemm( handle, opa, opb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc)", note))
        rows.append(row("cublas", CUPY_BLAS, "cupy_backends.cuda.libs.cublas.CUBLASError: %s", cause, role, name, note))
    # handle creation: GPU memory already taken (rules/codes-cuda-libs.json, verified in messages.md 2.4)
    for name in ("CUBLAS_STATUS_ALLOC_FAILED", "CUBLAS_STATUS_NOT_INITIALIZED", "CUBLAS_STATUS_INTERNAL_ERROR"):
        rows.append(row("cublas", PT_BLAS + ", as in QwenLM/Qwen3#873, OptimalScale/LMFlow#114, NVIDIA/Fuser#4529", "RuntimeError: CUDA error: %s when calling `cublasCreate(handle)`", "gpu-oom", "root", name, "the handle's own allocation failed"))
    return rows


DNN_CAUSE = [  # (regex over the status name, cause, role); the first that matches
    (r"SUCCESS$", "none", "any"),
    (r"RUNTIME_IN_PROGRESS$", "none", "any"),
    (r"INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED$", "gpu-oom", "root"),
    (r"INTERNAL_ERROR_HOST_ALLOCATION_FAILED$", "host-oom", "root"),
    (r"(?:INTERNAL_ERROR|NOT_INITIALIZED|MAPPING_ERROR)$", "gpu-oom", "root"),
    (r"ALLOC_FAILED$", "gpu-oom", "root"),
    (r"NOT_SUPPORTED_(?:ARCH_MISMATCH|INCOMPATIBLE_\w+|RUNTIME_PREREQUISITE_MISSING|SUBLIBRARY_UNAVAILABLE)$", "driver", "root"),
    (r"(?:BAD_PARAM\w*|INVALID_VALUE|NOT_SUPPORTED\w*|DEPRECATED|RUNTIME_FP_OVERFLOW)$", "usage-error", "root"),
    (r"(?:ARCH_MISMATCH|LICENSE_ERROR|VERSION_MISMATCH|\w+_VERSION_MISMATCH|SUBLIBRARY_LOADING_FAILED|RUNTIME_PREREQUISITE_MISSING)$", "driver", "root"),
    (r"(?:EXECUTION_FAILED\w*|INTERNAL_ERROR_\w+)$", "driver", "consequence"),
]
# cuDNN 8 and older (cudnn_ops_infer.h@8.9 / cudnn.h@7.6 cudnnStatus_t); 9.x comes from the captured table
DNN_LEGACY = ["CUDNN_STATUS_SUCCESS", "CUDNN_STATUS_NOT_INITIALIZED", "CUDNN_STATUS_ALLOC_FAILED", "CUDNN_STATUS_BAD_PARAM",
              "CUDNN_STATUS_INTERNAL_ERROR", "CUDNN_STATUS_INVALID_VALUE", "CUDNN_STATUS_ARCH_MISMATCH", "CUDNN_STATUS_MAPPING_ERROR",
              "CUDNN_STATUS_EXECUTION_FAILED", "CUDNN_STATUS_NOT_SUPPORTED", "CUDNN_STATUS_LICENSE_ERROR",
              "CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING", "CUDNN_STATUS_RUNTIME_IN_PROGRESS", "CUDNN_STATUS_RUNTIME_FP_OVERFLOW",
              "CUDNN_STATUS_VERSION_MISMATCH"]
PT_DNN = "pytorch/aten/src/ATen/cuda/Exceptions.h@v2.9.0 (AT_CUDNN_CHECK: 'cuDNN error: ' + cudnnGetErrorString, which returns the status name)"


def dnn_cause(name):
    for rx, cause, role in DNN_CAUSE:
        if re.search(rx, name):
            return cause, role
    raise SystemExit(f"gen_inventory: no cause for {name}")


def cudnn(t):
    rows = []
    seen = set()
    for num, name in [(n, v[0]) for n, v in sorted(t["dnn"].items())] + [(i, n) for i, n in enumerate(DNN_LEGACY)]:
        if name in seen or not name.startswith("CUDNN_STATUS_"):
            continue
        seen.add(name)
        cause, role = dnn_cause(name)
        legacy = name in DNN_LEGACY and num < 100
        src = "cudnn_ops_infer.h@8.9 cudnnStatus_t" if legacy else "cudnnGetErrorString of cuDNN 9 on an H200 (tools/capture/captured/codes/code-tables.tsv)"
        template = "RuntimeError: cuDNN error: %s"
        if name == "CUDNN_STATUS_NOT_SUPPORTED":
            template += ". This error may appear if you passed in a non-contiguous input."
        rows.append(row("cudnn", PT_DNN + "; codes: " + src, template, cause, role, name, f"cudnnStatus_t {num}"))
    rows.append(row("cudnn", "tensorflow/tensorflow tensorflow/stream_executor/cuda/cuda_dnn.cc@v2.4.0 (LOG(ERROR) << \"Could not create cudnn handle: \" << ToString(status)), as in tensorflow/tensorflow#24496",
                    "E tensorflow/stream_executor/cuda/cuda_dnn.cc:329] Could not create cudnn handle: %s", "gpu-oom", "root", "CUDNN_STATUS_INTERNAL_ERROR", "TensorFlow's handle creation: GPU memory already taken"))
    return rows


HIP_SOURCE = "ROCm/clr hipamd/src/hip_error.cpp@rocm-6.4.0 (ihipGetErrorName, ihipGetErrorString)"
PT_HIP = "pytorch/c10/cuda/CUDAException.cpp@v2.9.0 hipified for ROCm ('HIP error: ' + hipGetErrorString)"
PT_HIP_SEARCH = "pytorch/c10/cuda/CUDAException.cpp@v2.9.0 hipified for ROCm ('Search for `NAME' in https://rocm.docs.amd.com/...', as in vladmandic/sdnext#4801)"


def hip():
    sig_cause = {
        "hip-code-hardware": ("gpu-hardware", "root"), "hip-code-driver-environment": ("driver", "root"),
        "hip-code-consequence": ("driver", "consequence"), "hip-code-invalid-use": ("usage-error", "root"),
    }
    codes = []
    with open(os.path.join(ROOT, "rules/codes-hip.json"), encoding="utf-8") as f:
        d = json.load(f)
    for s in d["signatures"]:
        if s["id"] in sig_cause:
            for name, text in re.findall(r'(hipError\w+): "([^"]+)"', s.get("description", "")):
                codes.append((name, text) + sig_cause[s["id"]])
    codes += [
        ("hipErrorOutOfMemory", "out of memory", "gpu-oom", "root"),
        ("hipErrorIllegalAddress", "an illegal memory access was encountered", "illegal-address", "root"),
        ("hipErrorAssert", "device-side assert triggered", "device-assert", "root"),
        ("hipErrorLaunchFailure", "unspecified launch failure", "illegal-address", "root"),
        ("hipErrorInvalidDeviceFunction", "invalid device function", "driver", "root"),
        ("hipErrorRuntimeMemory", "runtime memory call returned error", "gpu-oom", "root"),
        ("hipErrorNotReady", "device not ready", "none", "any"),
    ]
    rows = []
    for name, text, cause, role in codes:
        rows.append(row("hip", PT_HIP + "; codes: " + HIP_SOURCE, "RuntimeError: HIP error: %s", cause, role, text, name))
        rows.append(row("hip", PT_HIP_SEARCH + "; codes: " + HIP_SOURCE, "Search for `%s' in https://rocm.docs.amd.com/projects/HIP/en/latest/index.html for more information.", cause, role, name, text))
    rows.append(row("hip", "the seed article 001_f9a86a03cda1eda8 (as its readers quote it); HIP_ERROR_OUT_OF_MEMORY is hipErrorOutOfMemory in HIP bindings", "RuntimeError: HIP error: HIP_ERROR_OUT_OF_MEMORY", "gpu-oom", "root", "", "issue 19's seed line"))
    rows.append(row("hip", "the seed article 001_f9a86a03cda1eda8", "HIP_ERROR_OUT_OF_MEMORY", "gpu-oom", "root", "", "quoted alone"))
    rows.append(row("hip", "IREE's HIP driver, as in iree-org/iree#22113", "HIP driver error '%s' (%d): %s", "gpu-oom", "root", "hipErrorOutOfMemory|2|out of memory", ""))
    return rows


def main():
    t = table()
    cz = causes()
    write("cuda.tsv", cuda(t, cz), [
        "CUDA runtime (cudaError_t) and driver (CUresult) codes in the formats programs print them.",
        "GENERATED by tools/catalogue/gen_inventory.py from tools/capture/captured/codes/code-tables.tsv",
        "(the libraries' own names and messages) and tools/catalogue/cuda-causes.tsv; do not edit by hand."])
    write("cublas.tsv", cublas(t), [
        "cuBLAS status codes (cublasGetStatusName/String on an H200) in the formats programs print them.",
        "GENERATED by tools/catalogue/gen_inventory.py; do not edit by hand."])
    write("cudnn.tsv", cudnn(t), [
        "cuDNN status codes (cuDNN 9 as captured, cuDNN 8 and older from cudnn_ops_infer.h) in the formats programs print them.",
        "GENERATED by tools/catalogue/gen_inventory.py; do not edit by hand."])
    write("hip.tsv", hip(), [
        "HIP runtime codes (hipError_t, ROCm clr hip_error.cpp) in the formats programs print them.",
        "GENERATED by tools/catalogue/gen_inventory.py; do not edit by hand."])


if __name__ == "__main__":
    main()
