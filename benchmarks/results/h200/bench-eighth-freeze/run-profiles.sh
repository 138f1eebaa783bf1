#!/usr/bin/env bash
# Device call: the four new apps' profiles (bench's own profile runs), in 16 MiB pieces.
set -u
tar -xJf build-gpu/build.tar.xz
mkdir -p wd8
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader > $OUT/device.txt
for a in flatten tsp lpm isect; do
  DIVOPT_MODE=profile DIVOPT_PROFILE_FILE=wd8/$a.divprof timeout 120 build/bin/bench-app-$a --variant original --repeat 1 --seed 1 --quiet > /dev/null 2>&1
done
ls -la wd8
cd wd8 && tar -cf - *.divprof | split -b 16M - $OUT/p8.
ls -la $OUT
