#!/usr/bin/env bash
# Device call: the suite's profiles (bench's own profile runs), kept in wd/ on a warm machine; returns bin $1 in 16 MiB pieces.
set -u
B=$1
if [[ ! -f wd/done ]]; then
  mkdir -p wd; tar -xJf build-gpu/build.tar.xz
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader > wd/device.txt
  for a in $(ls build/bin | sed -n 's/^bench-app-//p'); do echo $a; done | \
    xargs -P 4 -I{} sh -c 'DIVOPT_MODE=profile DIVOPT_PROFILE_FILE=wd/{}.divprof timeout 120 build/bin/bench-app-{} --variant original --repeat 1 --seed 1 --quiet > wd/{}.out 2>&1'
  touch wd/done
fi
ls -la wd | head -50
cd wd && tar -cf - $(cat ../.devrun/bins/$B.txt) | split -b 16M - $OUT/b$B.
cp device.txt $OUT/device-$B.txt 2>/dev/null; ls -la $OUT
