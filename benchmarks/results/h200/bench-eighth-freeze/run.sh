#!/usr/bin/env bash
# Device call: the eighth freeze's four new apps (flatten, tsp, lpm, isect): GPU tests, then the bench of the four.
set -u
R=$OUT/res; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader > $R/device.txt
git rev-parse HEAD > $R/head.txt; git status --short >> $R/head.txt
tar -xJf build-gpu/build.tar.xz
for a in flatten tsp lpm isect; do
  timeout 120 build/bin/bench-app-$a --check --repeat 3 > $R/check-$a.json 2> $R/check-$a.err; echo "$a rc $?" >> $R/checks.txt
done
cat $R/checks.txt
W=/tmp/work8; mkdir -p $W
timeout 300 build/bin/divopt bench --apps flatten,tsp,lpm,isect --work-dir $W --out $R/bench --commit $(git rev-parse HEAD) > $R/bench.log 2>&1
echo "bench rc $?" >> $R/bench.log
tail -3 $R/bench.log
ls -la $W > $R/work-ls.txt
cd $OUT && tar -cJf res.tar.xz res && cd - >/dev/null
timeout 200 scripts/gpu-tests.sh build > $R/gpu-tests.txt 2>&1
echo "gpu-tests rc $?" >> $R/gpu-tests.txt
tail -4 $R/gpu-tests.txt
cd $OUT && rm -f res.tar.xz && tar -cJf res.tar.xz res && rm -rf res
cd /tmp && tar -cf - work8/*.divprof | xz -T16 -3 > $OUT/profiles8.tar.xz; ls -la $OUT
