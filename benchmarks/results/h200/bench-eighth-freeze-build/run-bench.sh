#!/usr/bin/env bash
# Device call: the suite's kernel-only variants at HEAD with the profiles kept (issue 16's data to re-predict from).
set -u
R=$OUT/res; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader > $R/device.txt
git rev-parse HEAD > $R/head.txt; git status --short >> $R/head.txt
tar -xJf build-gpu/build.tar.xz
W=/tmp/work; mkdir -p $W
timeout 540 build/bin/divopt bench --skip-variants auto,model,online,handwritten,oracle --work-dir $W \
  --out $R/bench --commit $(git rev-parse HEAD) > $R/bench.log 2>&1
echo "bench rc $?" >> $R/bench.log
tail -3 $R/bench.log
ls -la $W > $R/work-ls.txt
cd /tmp && tar -cf - work/*.divprof | xz -T16 -6 > $OUT/profiles.tar.xz
cd $OUT && tar -cJf res.tar.xz res && rm -rf res
ls -la $OUT
