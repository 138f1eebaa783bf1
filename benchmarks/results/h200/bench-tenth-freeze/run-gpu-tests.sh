#!/usr/bin/env bash
# Device call: the GPU tests of the build that has the four new apps.
set -u
[ -d build/bin ] || tar -xJf build-gpu/build.tar.xz
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader > $OUT/device.txt
timeout 560 scripts/gpu-tests.sh build > $OUT/gpu-tests.txt 2>&1
echo "gpu-tests rc $?" >> $OUT/gpu-tests.txt
tail -8 $OUT/gpu-tests.txt
