#!/bin/bash
# Packs the fuzz build (.ci/fuzz's build-fuzz/) to run on another Linux host
# whose libraries may differ: the harnesses, the shared libraries they link
# and this machine's dynamic loader, into build-fuzz/pack/ (about 45 MiB),
# with longrun.sh beside them.  There, from the repository root:
#   T=420 OUT=/tmp/out bash build-fuzz/pack/longrun.sh
# runs every harness on 16 processes for T seconds (issue 22, item 3) and
# writes each process's final libFuzzer stats and a summary to $OUT.
set -euo pipefail
cd "$(dirname "$0")/../.."
P=build-fuzz/pack
rm -rf "$P"
mkdir -p "$P/lib"
cp build-fuzz/tests/fuzz/fuzz_* "$P/"
for bin in "$P"/fuzz_*; do ldd "$bin"; done | awk '$3 ~ /^\// { print $3 }' | sort -u | xargs -I{} cp -L {} "$P/lib/"
cp -L /lib64/ld-linux-x86-64.so.2 "$P/lib/"
cp tools/fuzz-longrun/longrun.sh "$P/"
du -sh "$P"
