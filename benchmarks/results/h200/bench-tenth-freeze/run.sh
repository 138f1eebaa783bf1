#!/usr/bin/env bash
# Device call: the bench of the four apps added after the tenth freeze (poisson, lm, ufind,
# chain), then each one's --check in both variants.
set -u
APPS="poisson lm ufind chain"
R=$OUT/res; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader > $R/device.txt
date -u >> $R/device.txt
[ -d build/bin ] || tar -xJf build-gpu/build.tar.xz
W=/tmp/work10; mkdir -p $W
timeout 420 build/bin/divopt bench --apps $(echo $APPS | tr ' ' ',') --work-dir $W --out $R/bench --commit f8b9532 > $R/bench.log 2>&1
echo "bench rc $?" >> $R/bench.log
tail -3 $R/bench.log
for a in $APPS; do for v in original handwritten; do
  timeout 60 build/bin/bench-app-$a --check --repeat 3 --variant $v > $R/check-$a-$v.json 2> $R/check-$a-$v.err; echo "$a $v rc $?" >> $R/checks.txt
done; done
cat $R/checks.txt
cd $OUT && tar -cJf res.tar.xz res && rm -rf res
cd /tmp && tar -cJf $OUT/profiles10.tar.xz work10/*.divprof; ls -la $OUT
