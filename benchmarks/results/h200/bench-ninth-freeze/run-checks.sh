#!/usr/bin/env bash
# Device call: the eight new apps' --check, then the GPU tests of the build that has them.
set -u
[ -d build/bin ] || tar -xJf build-gpu/build.tar.xz
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader > $OUT/device.txt
for a in ssa ik voxel cdc sudoku viterbi pull range; do
  timeout 90 build/bin/bench-app-$a --check --repeat 3 > $OUT/check-$a.json 2> $OUT/check-$a.err; echo "$a rc $?" >> $OUT/checks.txt
done
cat $OUT/checks.txt
timeout 330 scripts/gpu-tests.sh build > $OUT/gpu-tests.txt 2>&1
echo "gpu-tests rc $?" >> $OUT/gpu-tests.txt
tail -6 $OUT/gpu-tests.txt
