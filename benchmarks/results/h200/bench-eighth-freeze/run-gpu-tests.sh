#!/usr/bin/env bash
# Device call: the GPU tests at this stop's last code commit.
set -u
R=$OUT/res; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader > $R/device.txt
tar -xJf build-gpu/build.tar.xz
timeout 400 scripts/gpu-tests.sh build > $R/gpu-tests.txt 2>&1
echo "gpu-tests rc $?" >> $R/gpu-tests.txt
tail -5 $R/gpu-tests.txt
cd $OUT && tar -cJf res.tar.xz res && rm -rf res
