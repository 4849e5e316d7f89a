#!/bin/bash
# Reads the failure-message knowledge out of what the GPU image ships (issue 19):
# format strings of the native libraries, the raise/warn/log sites of the Python
# packages, versions. Usage: extract.sh OUTDIR   (writes OUTDIR/extract.tar.gz)
set -u
O=${1:?outdir}; W=/tmp/extract; rm -rf $W; mkdir -p $W/so $W/py $W/run
PY=$(command -v python3)
SP=$($PY -c 'import site;print(site.getsitepackages()[0])')
echo "site-packages: $SP" > $W/versions.txt
$PY -m pip list 2>/dev/null >> $W/versions.txt
$PY -c 'import torch;print("torch",torch.__version__,"cuda",torch.version.cuda,"nccl",torch.cuda.nccl.version(),"cudnn",torch.backends.cudnn.version())' >> $W/versions.txt 2>&1
nvidia-smi >> $W/versions.txt 2>&1
PAT='error|fail|out of memory|oom|timeout|timed out|abort|killed|signal|exhaust|invalid|not supported|unhandled|mismatch|watchdog|heartbeat|warn|no space|shm|shared memory|insufficient|cannot|can.t |unable|refused|reset by peer|closed|exit|crash|corrupt|illegal|deadline|hang|desync|terminat'
find $SP /usr/local/cuda*/lib64 -name '*.so*' -type f 2>/dev/null | grep -E 'torch/lib/lib(torch_cuda|c10_cuda|torch_cpu|c10|torch_python|torch_global_deps)|nvidia/.*/lib/lib(nccl|cudart|cublas|cublasLt|cudnn|cufft|cusolver|cusparse|nvrtc|nvJitLink|cuda)|jaxlib/.*\.so|jax_plugins/.*\.so|jax_cuda.*\.so|cupy/.*\.so|cupy_backends/.*\.so|triton/.*\.so|deepspeed/.*\.so|vllm/.*\.so|tensorflow/.*\.so|bitsandbytes/.*\.so|flash_attn.*\.so' | sort -u > $W/so-list.txt
n=0
while read -r f; do
  rel=${f#$SP/}; key=$(echo "$rel" | tr '/' '_' | sed 's/[^A-Za-z0-9._-]/_/g')
  strings -n 8 "$f" | grep -aiE "$PAT" | sort -u > "$W/so/$key.txt" &
  n=$((n+1)); if [ $((n % 12)) -eq 0 ]; then wait; fi
done < $W/so-list.txt
wait
# NCCL whole (it is small and its WARN formats do not always carry a keyword)
for f in $(grep -E 'nvidia/nccl/lib/libnccl|torch/lib/libnccl' $W/so-list.txt); do strings -n 6 "$f" > "$W/so/FULL_$(basename $f).txt"; done
RX='raise |warnings\.warn\(|logger\.(error|warning|exception|critical)\(|log\.(error|warning|exception|critical)\(|logging\.(error|warning|exception|critical)\(|print\(f?"?\[?(error|warning)'
for p in torch/distributed torch/cuda torch/utils/data torch/multiprocessing torch/_utils.py torch/storage.py torch/xpu torch/mps deepspeed accelerate horovod jax jax_plugins jaxlib cupy cupy_backends triton vllm lightning pytorch_lightning transformers ray; do
  [ -e "$SP/$p" ] || continue
  grep -rnE --include='*.py' "$RX" "$SP/$p" | sed "s#^$SP/##" > "$W/py/$(echo $p | tr '/' '_').txt"
done
du -sh $W/so $W/py >> $W/versions.txt
tar -C /tmp -czf $O/extract.tar.gz extract
