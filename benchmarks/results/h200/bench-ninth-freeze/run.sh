#!/usr/bin/env bash
# Device call: the bench of the ninth freeze's eight new apps (ssa, ik, voxel, cdc, sudoku,
# viterbi, pull, range); their profiles come back too (run-c.sh: their checks and the GPU tests).
set -u
APPS="ssa ik voxel cdc sudoku viterbi pull range"
R=$OUT/res; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader > $R/device.txt
date -u >> $R/device.txt
tar -xJf build-gpu/build.tar.xz
W=/tmp/work9; mkdir -p $W
timeout 450 build/bin/divopt bench --apps $(echo $APPS | tr ' ' ',') --work-dir $W --out $R/bench --commit a2f7798 > $R/bench.log 2>&1
echo "bench rc $?" >> $R/bench.log
tail -3 $R/bench.log
cd $OUT && tar -cJf res.tar.xz res && rm -rf res
cd /tmp && tar -cf - work9/*.divprof | xz -T16 -3 | split -b 15M - $OUT/profiles9.tar.xz.; ls -la $OUT
